//! What every request handler is given: the operations' domain, the limits HTTP requests are
//! held to, what HTTP keeps apart from the operations (failed logins, open event streams), and
//! the operator's figures.

use std::sync::Arc;
use std::time::Duration;

use grundy_judge::Languages;
use grundy_problems::Catalogue;
use grundy_store::Store;

use crate::clock::Clock;
use crate::domain::{Domain, Policy, Registration, accounts};
use crate::events::StreamSlots;
use crate::telemetry::Telemetry;
use crate::throttle::{Registrations, Throttle, ThrottleLimits};

/// Everything a request handler needs: the operations' domain and the limits of HTTP requests.
#[derive(Debug, Clone)]
pub struct AppState(Arc<App>);

#[derive(Debug)]
pub struct App {
    pub domain: Domain,
    pub limits: HttpLimits,
    /// Failed logins, registrations and password changes per name and per address.
    pub throttle: Throttle,
    /// Accounts registered per address while registration is open.
    pub registrations: Registrations,
    /// Event streams open per user.
    pub streams: StreamSlots,
    /// Requests by route and status, and the figures of the workers sharing this state.
    pub telemetry: Telemetry,
}

/// What HTTP requests are held to, apart from what the operations decide.
#[derive(Debug, Clone)]
pub struct HttpLimits {
    /// Any request body but a package upload.
    pub body_bytes: usize,
    /// A problem package upload (zipped).
    pub package_bytes: usize,
    pub timeout: Duration,
    /// Whether session cookies are always marked `Secure` (the service is reached over HTTPS
    /// only); else they are when a request came over HTTPS.
    pub secure_cookies: bool,
    /// Whether a reverse proxy in front tells clients' addresses in `X-Forwarded-For`.
    pub trust_proxy: bool,
}

impl Default for HttpLimits {
    fn default() -> Self {
        RequestLimits::default().split().1
    }
}

/// Sizes, rates and policies as the operator sets them; split when the state is built into the
/// operations' [`Policy`] and the [`HttpLimits`] of requests.
#[derive(Debug, Clone)]
pub struct RequestLimits {
    /// Any request body but a package upload.
    pub body_bytes: usize,
    pub source_bytes: usize,
    /// A problem package upload (zipped).
    pub package_bytes: usize,
    pub timeout: Duration,
    /// Submissions a user may make in any minute; 0 for no limit.
    pub submissions_per_minute: u32,
    /// Whether session cookies are always marked `Secure` (the service is reached over HTTPS
    /// only); else they are when a request came over HTTPS.
    pub secure_cookies: bool,
    /// Whether a reverse proxy in front tells clients' addresses in `X-Forwarded-For`.
    pub trust_proxy: bool,
    /// Who may create an account from the registration page.
    pub registration: Registration,
    /// How long an API token lasts, in days (the default and the most).
    pub token_days: u32,
    /// What each owner's problems may take, stored and unpacked; `None` for no limit.
    pub problem_quota_bytes: Option<u64>,
    /// Backoff after failed logins, registrations and password changes.
    pub login_throttle: ThrottleLimits,
    /// Accounts one client address may register in an hour while registration is open; 0 for
    /// no limit.
    pub registrations_per_address_hour: u32,
    /// Event streams one user may have open at once; 0 for no limit.
    pub event_streams_per_user: usize,
}

impl Default for RequestLimits {
    fn default() -> Self {
        RequestLimits {
            body_bytes: 1 << 20,
            source_bytes: 64 << 10,
            package_bytes: 64 << 20,
            timeout: Duration::from_secs(30),
            submissions_per_minute: 20,
            secure_cookies: false,
            trust_proxy: false,
            registration: Registration::Closed,
            token_days: accounts::DEFAULT_TOKEN_DAYS,
            problem_quota_bytes: Some(DEFAULT_PROBLEM_QUOTA_BYTES),
            login_throttle: ThrottleLimits::default(),
            registrations_per_address_hour: DEFAULT_REGISTRATIONS_PER_ADDRESS_HOUR,
            // Several tabs following submissions; each stream holds a task that reads the store.
            event_streams_per_user: 8,
        }
    }
}

/// The default of [`RequestLimits::registrations_per_address_hour`]: a family or a small group
/// behind one address; a class behind one NAT address registers with an invitation code.
pub const DEFAULT_REGISTRATIONS_PER_ADDRESS_HOUR: u32 = 10;

/// The default of [`RequestLimits::problem_quota_bytes`]: four packages at the unpacked cap
/// ([`grundy_problems::package::MAX_UNPACKED_BYTES`]), or some hundreds of ordinary ones.
pub const DEFAULT_PROBLEM_QUOTA_BYTES: u64 = 256 << 20;

impl RequestLimits {
    fn split(self) -> (Policy, HttpLimits) {
        let policy = Policy {
            source_bytes: self.source_bytes,
            submissions_per_minute: self.submissions_per_minute,
            registration: self.registration,
            token_days: self.token_days,
            problem_quota_bytes: self.problem_quota_bytes,
        };
        let http = HttpLimits {
            body_bytes: self.body_bytes,
            package_bytes: self.package_bytes,
            timeout: self.timeout,
            secure_cookies: self.secure_cookies,
            trust_proxy: self.trust_proxy,
        };
        (policy, http)
    }
}

impl AppState {
    pub fn new(
        store: Store,
        catalogue: Catalogue,
        languages: Languages,
        limits: RequestLimits,
    ) -> AppState {
        AppState::with_clock(store, catalogue, languages, limits, Clock::system())
    }

    pub fn with_clock(
        store: Store,
        catalogue: Catalogue,
        languages: Languages,
        limits: RequestLimits,
        clock: Clock,
    ) -> AppState {
        AppState::build(store, catalogue, languages, limits, clock, Telemetry::off())
    }

    /// With figures for the operator (see [`Telemetry`]).
    pub fn build(
        store: Store,
        catalogue: Catalogue,
        languages: Languages,
        limits: RequestLimits,
        clock: Clock,
        telemetry: Telemetry,
    ) -> AppState {
        let throttle = Throttle::new(limits.login_throttle, clock.clone());
        let registrations = Registrations::new(
            limits.registrations_per_address_hour,
            limits.login_throttle.capacity,
            clock.clone(),
        );
        let streams = StreamSlots::new(limits.event_streams_per_user);
        let (policy, limits) = limits.split();
        AppState(Arc::new(App {
            domain: Domain::new(store, catalogue, languages, policy, clock),
            limits,
            throttle,
            registrations,
            streams,
            telemetry,
        }))
    }

    /// Records the built-in problems' versions (a changed problem must have a new one) and loads
    /// the problems teachers created, unpacking packages' tests inside `folder`.
    pub async fn load_problems(
        &self,
        folder: &std::path::Path,
    ) -> Result<usize, crate::registry::RegistryError> {
        self.domain.problems.load(&self.domain.store, folder).await
    }
}

impl std::ops::Deref for AppState {
    type Target = App;
    fn deref(&self) -> &App {
        &self.0
    }
}
