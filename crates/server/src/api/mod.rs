//! `/api/v1`: problems, submissions (programs and answers), live progress, accounts, teachers'
//! problems and rejudging, health; described by the OpenAPI document at `/api/openapi.json`
//! and browsable with the vendored Swagger UI at `/api/docs`.

pub(crate) mod account;
pub(crate) mod assignments;
pub(crate) mod courses;
pub(crate) mod problems;
pub(crate) mod submissions;
pub(crate) mod teaching;
pub mod views;

pub(crate) use problems::{INSTANCES_PER_SUBTASK, personal_seed};

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::{Json, Router};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::csrf::CsrfLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use utoipa_swagger_ui::SwaggerUi;

use crate::{ApiError, AppState, RequestLimits};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Grundy",
        description = "An online judge for combinatorial game theory. Authenticate with \
                       `Authorization: Bearer <token>` (scripts, the CLI) or the session cookie \
                       set by `POST /api/v1/login` (browsers). Errors are \
                       `{ \"error\": code, \"message\": text }`."
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
                crate::auth::SESSION_COOKIE,
            ))),
        );
    }
}

/// The routes with their descriptions and limits; `openapi()` and `routes()` both start here.
fn described(limits: RequestLimits) -> OpenApiRouter<AppState> {
    let timed = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .routes(routes!(problems::health))
        .routes(routes!(problems::version))
        .routes(routes!(problems::list_problems))
        .routes(routes!(problems::problem))
        .routes(routes!(problems::instances))
        .routes(routes!(
            submissions::list_submissions,
            submissions::create_submission
        ))
        .routes(routes!(submissions::submission))
        .routes(routes!(account::login))
        .routes(routes!(account::logout))
        .routes(routes!(account::me))
        .routes(routes!(account::change_password))
        .routes(routes!(account::create_token))
        .routes(routes!(account::create_user))
        .routes(routes!(teaching::rejudge))
        .routes(routes!(teaching::rejudge_problem))
        .routes(routes!(teaching::create_variant))
        .routes(routes!(teaching::export_problem))
        .routes(routes!(courses::list_courses, courses::create_course))
        .routes(routes!(courses::course))
        .routes(routes!(courses::join_course))
        .routes(routes!(courses::add_members))
        .routes(routes!(courses::remove_member))
        .routes(routes!(assignments::create_assignment))
        .routes(routes!(
            assignments::assignment,
            assignments::update_assignment
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

/// The OpenAPI document.
pub fn openapi() -> utoipa::openapi::OpenApi {
    described(RequestLimits::default()).into_openapi()
}

pub(crate) fn routes(state: AppState) -> Router {
    let (api, doc) = described(state.limits.clone()).split_for_parts();
    Router::new()
        .merge(api)
        .merge(SwaggerUi::new("/api/docs").url("/api/openapi.json", doc))
        .merge(crate::web::routes(state.limits.clone()))
        .fallback(not_found)
        // Browsers send cookies with cross-site requests; writes from other origins are refused.
        // Scripts with tokens send neither `Origin` nor `Sec-Fetch-Site` and pass.
        .layer(CsrfLayer::new().with_rejection_response(|_| {
            (
                StatusCode::FORBIDDEN,
                "cross-origin request refused (CSRF protection)",
            )
                .into_response()
        }))
        .layer(axum::middleware::from_fn(crate::error::shape_errors))
        .layer(CompressionLayer::new())
        .layer(TraceLayer::new_for_http())
        .layer(PropagateRequestIdLayer::x_request_id())
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::Internal("a handler panicked".into()).into_response()
        }))
        .with_state(state)
}

/// JSON for API addresses, a page for the rest.
async fn not_found(uri: axum::http::Uri, visitor: crate::web::Visitor) -> axum::response::Response {
    if uri.path().starts_with("/api/") {
        ApiError::NotFound("this route".into()).into_response()
    } else {
        crate::web::not_found(visitor).await
    }
}

/// The JSON body of a handler's success, for brevity in signatures.
type JsonResult<T> = Result<Json<T>, ApiError>;
