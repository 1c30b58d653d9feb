# Loaded by schemathesis (SCHEMATHESIS_HOOKS) for crates/cli/tests/cli/api_fuzz.rs.
import schemathesis

# Package uploads are zips sent as raw bytes; schemathesis knows no `application/zip`, so it
# sends them the way it sends any binary body. Random bytes are not a package: the upload's
# refusal of them is allowed for in schemathesis.toml.
schemathesis.serializer.alias("application/zip", "application/octet-stream")
