//! Logging in and out, registering as the operator allows, and one's own account: the password
//! and the API tokens.

use askama::Template;
use askama_web::WebTemplate;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use serde::Deserialize;

use grundy_store::User;

use super::{
    Frame, PageError, SignedIn, Visitor, local_path, page_of_form, refusal, refused, words_for,
};
use crate::domain::{Error, Registration, accounts};
use crate::http::auth;
use crate::http::client::Client;
use crate::locale::{self, Locale};
use crate::state::AppState;
use crate::zone::{UNKNOWN_ZONE, Zone};

#[derive(Debug, Deserialize)]
pub(super) struct NextQuery {
    next: Option<String>,
}

#[derive(Template, WebTemplate)]
#[template(path = "login.html")]
pub(super) struct LoginPage {
    frame: Frame,
    next: String,
    name: String,
    error: Option<String>,
    can_register: bool,
}

fn can_register(state: &AppState) -> bool {
    state.domain.policy.registration != Registration::Closed
}

pub(super) async fn login_page(
    State(state): State<AppState>,
    Visitor(user): Visitor,
    Query(query): Query<NextQuery>,
) -> LoginPage {
    LoginPage {
        frame: Frame::new(user, "").titled(|ui| ui.log_in),
        next: local_path(query.next.as_deref()).to_owned(),
        name: String::new(),
        error: None,
        can_register: can_register(&state),
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct LoginForm {
    name: String,
    password: String,
    next: Option<String>,
}

/// Sets the new session's cookie and goes where the visitor was headed.
fn signed_in(state: &AppState, client: &Client, secret: &str, next: &str) -> Response {
    (
        AppendHeaders([(
            SET_COOKIE,
            auth::session_cookie(secret, client.secure_cookies(&state.limits)),
        )]),
        Redirect::to(next),
    )
        .into_response()
}

/// Signs in, or shows the form again: a wrong name or password, or after too many of them a
/// wait (429 with `Retry-After`).
pub(super) async fn login(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, PageError> {
    let next = local_path(form.next.as_deref()).to_owned();
    let previous = auth::session_secret(&headers);
    let signed_in_now = state
        .throttle
        .guard(
            &form.name,
            client.address,
            accounts::log_in(
                &state.domain,
                &form.name,
                &form.password,
                previous.as_deref(),
            ),
        )
        .await;
    match signed_in_now {
        Ok(session) => {
            let mut response = signed_in(&state, &client, &session.secret, &next);
            // The pages made before the caller is known (a refusal's, the login page after a
            // logout) then speak the account's language too.
            if let Some(preferred) = session.user.locale.as_deref().and_then(Locale::parse) {
                response.headers_mut().append(
                    SET_COOKIE,
                    HeaderValue::from_str(&locale::cookie(preferred)).expect("a cookie"),
                );
            }
            Ok(response)
        }
        Err(refused @ (Error::BadLogin | Error::Throttled { .. })) => {
            let page = LoginPage {
                frame: Frame::new(None, "").titled(|ui| ui.log_in),
                next,
                name: form.name,
                error: Some(words_for(None).error(&refused)),
                can_register: can_register(&state),
            };
            Ok(refusal(&refused, page))
        }
        Err(other) => Err(other.into()),
    }
}

pub(super) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, PageError> {
    if let Some(secret) = auth::session_secret(&headers) {
        accounts::log_out(&state.domain, &secret).await?;
    }
    Ok((
        AppendHeaders([(SET_COOKIE, auth::expired_cookie())]),
        Redirect::to("/problems"),
    )
        .into_response())
}

#[derive(Template, WebTemplate)]
#[template(path = "register.html")]
pub(super) struct RegisterPage {
    frame: Frame,
    open: bool,
    needs_code: bool,
    name: String,
    error: Option<String>,
}

impl RegisterPage {
    fn min_password(&self) -> usize {
        accounts::MIN_PASSWORD_CHARS
    }

    /// What a password needs, said before anyone has failed it.
    fn password_rules(&self) -> String {
        (self.frame.ui.password_rules)(accounts::MIN_PASSWORD_CHARS)
    }
}

fn register_page_for(
    state: &AppState,
    user: Option<User>,
    name: String,
    error: Option<String>,
) -> RegisterPage {
    RegisterPage {
        frame: Frame::new(user, "").titled(|ui| ui.register),
        open: can_register(state),
        needs_code: matches!(
            state.domain.policy.registration,
            Registration::Invitation(_)
        ),
        name,
        error,
    }
}

pub(super) async fn register_page(
    State(state): State<AppState>,
    Visitor(user): Visitor,
) -> RegisterPage {
    register_page_for(&state, user, String::new(), None)
}

#[derive(Debug, Deserialize)]
pub(super) struct RegisterForm {
    name: String,
    password: String,
    code: Option<String>,
}

/// A new student account, signed in at once. Whether the name is taken is said only when
/// everything else in the form is right, and every refusal counts as a failure for the name and
/// the address, so names cannot be tried in bulk to learn which exist.
pub(super) async fn register(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    Form(form): Form<RegisterForm>,
) -> Result<Response, PageError> {
    let previous = auth::session_secret(&headers);
    let attempt = state.throttle.guard(
        &form.name,
        client.address,
        accounts::register(
            &state.domain,
            &form.name,
            form.password,
            form.code.as_deref(),
            previous.as_deref(),
        ),
    );
    // Where anyone may register, every success is another account from the address as well.
    let registered = match state.domain.policy.registration {
        Registration::Open => state.registrations.guard(client.address, attempt).await,
        Registration::Closed | Registration::Invitation(_) => attempt.await,
    };
    match registered {
        Ok(session) => Ok(signed_in(&state, &client, &session.secret, "/problems")),
        Err(error) => {
            let message = words_for(None).error(&error);
            refused(
                error,
                register_page_for(&state, None, form.name, Some(message)),
            )
        }
    }
}

/// One API token as its owner sees it (never the secret, which is not kept).
pub(super) struct TokenLine {
    id: i64,
    label: String,
    created: i64,
    expires: i64,
    last_used: Option<i64>,
}

/// The signed-in user's own account: their password and their API tokens.
#[derive(Template, WebTemplate)]
#[template(path = "account.html")]
pub(super) struct AccountPage {
    frame: Frame,
    has_password: bool,
    /// The code of the language chosen for the account; empty to follow the browser.
    preference: &'static str,
    /// The zone chosen for the account; empty to follow the browser.
    time_zone: String,
    zones: &'static [String],
    token_days: u32,
    tokens: Vec<TokenLine>,
    /// A token just made: shown once, here, and never again.
    new_token: Option<String>,
    notice: Option<&'static str>,
    error: Option<String>,
}

async fn account_page_for(state: &AppState, user: User) -> Result<AccountPage, Error> {
    let tokens = accounts::tokens(&state.domain, &user)
        .await?
        .into_iter()
        .map(|t| TokenLine {
            id: t.id,
            label: t.label,
            created: t.created_at,
            expires: t.expires_at,
            last_used: t.last_used_at,
        })
        .collect();
    let preference = user
        .locale
        .as_deref()
        .and_then(Locale::parse)
        .map_or("", Locale::code);
    let time_zone = Zone::of_account(&user).map_or_else(String::new, |z| z.name().to_owned());
    let mut frame = Frame::new(Some(user), "");
    frame.title = frame.ui.account.to_owned();
    Ok(AccountPage {
        time_zone,
        zones: Zone::choices(),
        has_password: frame
            .user
            .as_ref()
            .is_some_and(|u| u.password_hash.is_some()),
        preference,
        token_days: state.domain.policy.token_days,
        tokens,
        new_token: None,
        notice: None,
        error: None,
        frame,
    })
}

pub(super) async fn account_page(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
) -> Result<AccountPage, PageError> {
    Ok(account_page_for(&state, user).await?)
}

#[derive(Debug, Deserialize)]
pub(super) struct PasswordForm {
    current: Option<String>,
    new: String,
}

/// Sets one's own password; this session stays, the others end and the API tokens are revoked.
/// Wrong current passwords are throttled with the logins of the name and the address.
pub(super) async fn change_password(
    State(state): State<AppState>,
    client: Client,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
    Form(form): Form<PasswordForm>,
) -> Result<Response, PageError> {
    let this_session = auth::signing_session(&headers);
    let changed = state
        .throttle
        .guard(
            &user.name,
            client.address,
            accounts::change_password(
                &state.domain,
                &user,
                form.current.as_deref(),
                form.new,
                this_session.as_deref(),
            ),
        )
        .await;
    let mut page = account_page_for(&state, user).await?;
    match changed {
        Ok(()) => {
            page.notice = Some(page.frame.ui.password_changed);
            Ok(page.into_response())
        }
        Err(error) => {
            page.error = Some(page.frame.ui.error(&error));
            refused(error, page)
        }
    }
}

#[derive(Debug, Deserialize)]
pub(super) struct TokenForm {
    label: Option<String>,
    days: Option<u32>,
}

/// A new token, shown on the page this once.
pub(super) async fn create_token(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Form(form): Form<TokenForm>,
) -> Result<Response, PageError> {
    let label = form.label.filter(|l| !l.trim().is_empty());
    let made = accounts::create_token(&state.domain, &user, label, form.days).await;
    let mut page = account_page_for(&state, user).await?;
    match made {
        Ok(token) => {
            page.new_token = Some(token.token);
            Ok(page.into_response())
        }
        Err(error) => {
            page.error = Some(page.frame.ui.error(&error));
            refused(error, page)
        }
    }
}

/// Revokes one of one's own tokens; anyone else's is "not found".
pub(super) async fn revoke_token(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Path(id): Path<i64>,
) -> Result<Response, PageError> {
    accounts::revoke_token(&state.domain, &user, id).await?;
    Ok(Redirect::to("/account").into_response())
}

#[derive(Debug, Deserialize)]
pub(super) struct LanguageForm {
    locale: String,
    next: Option<String>,
}

/// The language switch on every page: a cookie, and for someone signed in also the account's
/// preference (which outranks the cookie, so the switch must change it too). Goes back to the
/// page it was pressed on.
pub(super) async fn switch_language(
    State(state): State<AppState>,
    Visitor(user): Visitor,
    Form(form): Form<LanguageForm>,
) -> Result<Response, PageError> {
    let locale = Locale::parse(&form.locale)
        .ok_or_else(|| Error::BadRequest(format!("no language {:?}", form.locale)))?;
    if let Some(user) = &user {
        accounts::set_locale(&state.domain, user, Some(locale)).await?;
    }
    let next = return_to(local_path(form.next.as_deref()));
    Ok((
        AppendHeaders([(SET_COOKIE, locale::cookie(locale))]),
        Redirect::to(next),
    )
        .into_response())
}

/// The page to show again after the switch: a form's address is shown by its page.
fn return_to(next: &str) -> &str {
    let path = next.split_once('?').map_or(next, |(path, _)| path);
    let page = page_of_form(path);
    if page == path { next } else { page }
}

#[derive(Debug, Deserialize)]
pub(super) struct PreferenceForm {
    locale: String,
}

/// The account's language, or none (empty) to follow the browser.
pub(super) async fn set_preference(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Form(form): Form<PreferenceForm>,
) -> Result<Response, PageError> {
    let locale = match form.locale.as_str() {
        "" => None,
        code => Some(
            Locale::parse(code)
                .ok_or_else(|| Error::BadRequest(format!("no language {code:?}")))?,
        ),
    };
    accounts::set_locale(&state.domain, &user, locale).await?;
    // The cookie follows, so that pages made before the caller is known (a refusal's) agree.
    let cookie = locale.map_or_else(locale::expired_cookie, locale::cookie);
    Ok((
        AppendHeaders([(SET_COOKIE, cookie)]),
        Redirect::to("/account"),
    )
        .into_response())
}

#[derive(Debug, Deserialize)]
pub(super) struct TimeZoneForm {
    zone: String,
}

/// The zone the account reads times in, or none (empty) to follow the browser. A name the tz
/// database does not know is refused on the page.
pub(super) async fn set_time_zone(
    State(state): State<AppState>,
    SignedIn(user): SignedIn,
    Form(form): Form<TimeZoneForm>,
) -> Result<Response, PageError> {
    let zone = match form.zone.trim() {
        "" => None,
        name => match Zone::parse(name) {
            Ok(zone) => Some(zone),
            Err(_) => {
                let error = Error::BadRequest(UNKNOWN_ZONE.into());
                let mut page = account_page_for(&state, user).await?;
                page.error = Some(page.frame.ui.error(&error));
                return refused(error, page);
            }
        },
    };
    accounts::set_time_zone(&state.domain, &user, zone.as_ref()).await?;
    Ok(Redirect::to("/account").into_response())
}
