//! `/api/v1`: problems, submissions (programs and answers), live progress, accounts, teachers'
//! problems and rejudging, health; described by the OpenAPI document at `/api/openapi.json`
//! and browsable with the vendored Swagger UI at `/api/docs`.

mod account;
mod assignments;
mod caller;
mod courses;
mod error;
mod play;
mod problems;
mod submissions;
mod teaching;
mod views;
mod whole;

pub(crate) use error::{error_response, status_response};

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::{Json, Router};
use serde_json::{Value, json};
use tower_http::timeout::TimeoutLayer;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use utoipa_swagger_ui::SwaggerUi;

use crate::domain::accounts;
use crate::domain::submissions::MAX_ANSWERS;
use crate::state::{AppState, HttpLimits};
use error::ApiError;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Grundy",
        description = "An online judge for combinatorial game theory. Authenticate with \
                       `Authorization: Bearer <token>` (scripts, the CLI) or the session cookie \
                       set by `POST /api/v1/login` (browsers). Errors are \
                       `{ \"error\": code, \"message\": text }`. Words for a reader (messages, \
                       explanations) are in the caller's language: `?lang=en` or `?lang=vi` on \
                       any call, else the account's preference, else `Accept-Language`."
    ),
    modifiers(&Security),
    tags(
        (name = "service", description = "Health and version"),
        (name = "problems", description = "The catalogue and answer instances"),
        (name = "submissions", description = "Programs and answers, results, live progress"),
        (name = "accounts", description = "Logins, sessions, tokens and users"),
        (name = "teaching", description = "Problem packages, variants and rejudging (teachers)"),
        (name = "courses", description = "Courses, assignments, extensions, personal instances \
                                          and gradebooks"),
    )
)]
struct ApiDoc;

struct Security;

impl Modify for Security {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::new(
                crate::http::auth::SESSION_COOKIE,
            ))),
        );
    }
}

/// The routes with their descriptions and limits; `openapi()` and `routes()` both start here.
fn described(limits: HttpLimits) -> OpenApiRouter<AppState> {
    let timed = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(problems::health))
        .routes(routes!(problems::version))
        .routes(routes!(problems::list_problems))
        .routes(routes!(problems::problem))
        .routes(routes!(problems::instances))
        .routes(routes!(play::play))
        .routes(routes!(
            submissions::list_submissions,
            submissions::create_submission
        ))
        .routes(routes!(submissions::submission))
        .routes(routes!(account::login))
        .routes(routes!(account::logout))
        .routes(routes!(account::me))
        .routes(routes!(account::change_password))
        .routes(routes!(account::list_tokens, account::create_token))
        .routes(routes!(account::revoke_token))
        .routes(routes!(account::create_user))
        .routes(routes!(teaching::rejudge))
        .routes(routes!(teaching::rejudge_problem))
        .routes(routes!(teaching::create_variant))
        .routes(routes!(teaching::create_game))
        .routes(routes!(teaching::export_problem))
        .routes(routes!(teaching::publish_problem))
        .routes(routes!(courses::list_courses, courses::create_course))
        .routes(routes!(courses::course))
        .routes(routes!(courses::join_course))
        .routes(routes!(courses::add_members))
        .routes(routes!(courses::remove_member))
        .routes(routes!(courses::withdraw_invitation))
        .routes(routes!(courses::list_invitations))
        .routes(routes!(courses::accept_invitation))
        .routes(routes!(courses::decline_invitation))
        .routes(routes!(courses::memberships_to_review))
        .routes(routes!(assignments::create_assignment))
        .routes(routes!(
            assignments::assignment,
            assignments::update_assignment,
            assignments::delete_assignment
        ))
        .routes(routes!(assignments::set_extension))
        .routes(routes!(assignments::gradebook))
        .routes(routes!(assignments::gradebook_csv))
        .routes(routes!(assignments::my_instances))
        .routes(routes!(assignments::view_instances))
        .routes(routes!(assignments::regenerate_instances))
        .routes(routes!(assignments::pin_instances))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.timeout,
        ))
        .layer(DefaultBodyLimit::max(limits.body_bytes));
    // Packages are larger and slower to check than anything else.
    let uploads = OpenApiRouter::new()
        .routes(routes!(teaching::upload_package))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            limits.timeout * 4,
        ))
        .layer(DefaultBodyLimit::max(limits.package_bytes));
    // Event streams live as long as judging does: no request timeout there.
    let streams = OpenApiRouter::new().routes(routes!(submissions::events));
    timed.merge(uploads).merge(streams)
}

/// The OpenAPI document of a service with the default settings.
pub fn openapi() -> utoipa::openapi::OpenApi {
    completed(
        described(HttpLimits::default()).into_openapi(),
        accounts::DEFAULT_TOKEN_DAYS,
    )
}

/// The API's routes and the browsable documentation; `token_days` is the longest lifetime this
/// service gives a token.
pub(crate) fn routes(limits: HttpLimits, token_days: u32) -> Router<AppState> {
    let (api, doc) = described(limits).split_for_parts();
    Router::new()
        .merge(api)
        .merge(SwaggerUi::new("/api/docs").url("/api/openapi.json", completed(doc, token_days)))
}

/// The refusals that come from the extractors and layers rather than from handlers, added to
/// every operation they can happen on, so that no annotation can forget one; and what depends on
/// the service's settings.
fn completed(doc: utoipa::openapi::OpenApi, token_days: u32) -> utoipa::openapi::OpenApi {
    let mut doc = serde_json::to_value(doc).expect("the document serializes");
    let error = |description: &str| {
        json!({
            "description": description,
            "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/ErrorBody" } } }
        })
    };
    if let Some(paths) = doc["paths"].as_object_mut() {
        for operation in paths
            .values_mut()
            .filter_map(Value::as_object_mut)
            .flat_map(|item| {
                item.values_mut()
                    .filter_map(Value::as_object_mut)
                    .filter(|o| o.contains_key("responses"))
            })
        {
            let mut common = Vec::new();
            if operation
                .get("parameters")
                .is_some_and(|p| p.as_array().is_some_and(|p| !p.is_empty()))
            {
                common.push(("400", "a path or query parameter that does not parse"));
            }
            if let Some(body) = operation.get("requestBody") {
                common.push(("413", "a body larger than the service takes"));
                if body["content"].get("application/json").is_some() {
                    common.push(("400", "a body that is not JSON"));
                    common.push(("415", "a body that is not `application/json`"));
                    common.push((
                        "422",
                        "JSON of the wrong shape (a missing, unknown or mistyped field)",
                    ));
                }
            }
            if operation
                .get("security")
                .is_some_and(|s| s.as_array().is_some_and(|s| !s.is_empty()))
            {
                common.push(("401", "no valid token or session"));
            }
            let responses = operation["responses"]
                .as_object_mut()
                .expect("responses are a map");
            for (status, description) in common {
                responses
                    .entry(status)
                    .or_insert_with(|| error(description));
            }
        }
    }
    // utoipa has no attribute for a map's size, nor for unique items.
    let schemas = &mut doc["components"]["schemas"];
    schemas["AssignmentBody"]["properties"]["problems"]["uniqueItems"] = json!(true);
    let answers = &mut schemas["NewAnswers"]["properties"]["answers"];
    answers["minProperties"] = json!(1);
    answers["maxProperties"] = json!(MAX_ANSWERS);
    doc["components"]["schemas"]["NewTokenBody"]["properties"]["expires_in_days"]["maximum"] =
        json!(token_days);
    serde_json::from_value(doc).expect("the completed document reads back")
}

/// The JSON body of a handler's success, for brevity in signatures.
type JsonResult<T> = Result<Json<T>, ApiError>;
