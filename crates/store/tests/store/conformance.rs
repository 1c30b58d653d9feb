//! One story, run against both backends: what the service relies on from its storage, above all
//! the queue's lease (a dead worker's submission is judged again; a stale worker writes nothing).
//!
//! PostgreSQL: `GRUNDY_TEST_POSTGRES_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`)
//! names a server where each test creates and drops its own database. Where none answers, the
//! PostgreSQL half says so and skips; in CI (`CI=true`) that is a failure.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use grundy_store::{
    AssignmentSpec, CustomProblemInfo, Feedback, Invited, Listing, MemberOrigin, MemberRole,
    NewCustomProblem, NewSubmission, Outcome, ProblemMark, ProblemVersion, Put, Role, Scoring,
    Session, Store, StoreError, SubmissionKind, SubmissionQuery, SubmissionStatus, TestRow,
    priority,
};
use grundy_verdict::transcript::{GameRecord, MoveRecord, Mover, Side, Transcript, Value};
use grundy_verdict::{Shown, TestName, Verdict};

/// A store for one test, and what to drop afterwards.
struct Fixture {
    store: Store,
    cleanup: Option<(String, String)>,
    _dir: Option<tempfile::TempDir>,
}

impl Fixture {
    async fn sqlite() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::connect(&format!(
            "sqlite:{}",
            dir.path().join("grundy.db").display()
        ))
        .await
        .unwrap();
        Fixture {
            store,
            cleanup: None,
            _dir: Some(dir),
        }
    }

    async fn postgres(test: &str) -> Option<Fixture> {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let admin_url = std::env::var("GRUNDY_TEST_POSTGRES_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
        let admin = match sqlx::PgPool::connect(&admin_url).await {
            Ok(pool) => pool,
            Err(e) => {
                if std::env::var("CI").is_ok_and(|v| v == "true") {
                    panic!("{test}: PostgreSQL at {admin_url} is required in CI: {e}");
                }
                eprintln!("SKIPPED {test} on PostgreSQL: no server at {admin_url} ({e})");
                return None;
            }
        };
        let name = format!(
            "grundy_test_{}_{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        let url = match admin_url.rsplit_once('/') {
            Some((base, _)) => format!("{base}/{name}"),
            None => panic!("bad URL {admin_url}"),
        };
        let store = Store::connect(&url).await.unwrap();
        Some(Fixture {
            store,
            cleanup: Some((admin_url, name)),
            _dir: None,
        })
    }

    async fn finish(self) {
        self.store.close().await;
        if let Some((admin_url, name)) = self.cleanup {
            let admin = sqlx::PgPool::connect(&admin_url).await.unwrap();
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE {name} WITH (FORCE)"
            )))
            .execute(&admin)
            .await
            .unwrap();
            admin.close().await;
        }
    }
}

/// Each story as a test per backend.
macro_rules! conformance {
    ($($story:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $story() {
                    let fixture = super::Fixture::sqlite().await;
                    super::$story(&fixture.store).await;
                    fixture.finish().await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $story() {
                    let Some(fixture) = super::Fixture::postgres(stringify!($story)).await else { return };
                    super::$story(&fixture.store).await;
                    fixture.finish().await;
                }
            )*
        }
    };
}

conformance!(
    users_and_tokens,
    sessions_expire,
    problem_versions_are_immutable,
    a_submission_is_judged_once,
    a_dead_workers_submission_is_judged_again_and_the_stale_worker_writes_nothing,
    rejudging_takes_a_submission_from_its_worker,
    priority_then_age,
    the_queue_is_fair_between_people,
    a_wait_counts_from_when_it_was_queued,
    exhausted_submissions_end_as_internal_errors,
    released_work_goes_back_to_the_queue,
    the_queue_watcher_hears_notices_and_lets_the_store_close,
    listing_filters,
    concurrent_workers_never_claim_one_submission_twice,
    custom_problems_are_versioned_and_owned,
    custom_problems_keep_to_a_quota_and_start_as_drafts,
    drafts_are_seen_through_courses,
    recent_submissions_are_counted_per_user,
    users_are_listed_and_their_roles_changed,
    problem_marks_say_solved_attempted_and_best,
    courses_have_teachers_students_and_assignments,
    teachers_see_their_courses_submissions_only,
    personal_draws_regenerate_unless_pinned,
    a_student_account_teaches_nothing,
    teachers_manage_only_accounts_their_courses_made,
    invitations_are_answered_once,
    practice_feedback_follows_open_assignments,
);

async fn student(store: &Store, name: &str) -> i64 {
    store
        .create_user(name, Role::Student, Some("$argon2id$fake"), 1)
        .await
        .unwrap()
        .id
}

fn program(user_id: i64, problem: &str, priority: i64) -> NewSubmission {
    NewSubmission {
        user_id,
        problem: problem.to_owned(),
        kind: SubmissionKind::Program,
        language: Some("cpp20".into()),
        source: b"int main() {}".to_vec(),
        priority,
        assignment_id: None,
        instance_seed: None,
    }
}

fn test_row(position: i64, verdict: &str) -> TestRow {
    TestRow {
        position,
        name: TestName::new("small", position as u32 + 1),
        verdict: Verdict::parse(verdict).unwrap(),
        cpu_ms: 3,
        wall_ms: 5,
        memory_kib: 1024,
        message: None,
        detail: None,
        shown: None,
        transcript: None,
    }
}

fn accepted(version: i64) -> Outcome {
    Outcome {
        verdict: Verdict::Accepted,
        score: 100,
        max_score: 100,
        compile_message: None,
        problem_version: version,
    }
}

async fn users_and_tokens(store: &Store) {
    assert_eq!(store.count_users().await.unwrap(), 0);
    let ann = store
        .create_user("ann", Role::Teacher, Some("hash"), 10)
        .await
        .unwrap();
    assert_eq!(
        (ann.name.as_str(), ann.role, ann.created_at),
        ("ann", Role::Teacher, 10)
    );
    assert!(matches!(
        store.create_user("ann", Role::Student, None, 11).await,
        Err(StoreError::Conflict(_))
    ));
    let found = store.user_by_name("ann").await.unwrap().unwrap();
    assert_eq!(
        (found.id, found.password_hash.as_deref()),
        (ann.id, Some("hash"))
    );
    assert!(store.user_by_name("bob").await.unwrap().is_none());
    // A name that only looks like hers (a Cyrillic "а") is refused as such; her name typed full
    // width is hers.
    assert!(matches!(
        store
            .create_user("\u{430}nn", Role::Student, None, 11)
            .await,
        Err(StoreError::Conflict(grundy_store::LOOKALIKE))
    ));
    assert!(matches!(
        store
            .create_user("\u{ff21}\u{ff2e}\u{ff2e}", Role::Student, None, 11)
            .await,
        Err(StoreError::Conflict("a user with this name"))
    ));
    assert_eq!(
        store
            .user_by_name("\u{ff41}nn")
            .await
            .unwrap()
            .map(|u| u.id),
        Some(ann.id)
    );
    assert_eq!(store.count_users().await.unwrap(), 1);

    let cli = store
        .create_token(ann.id, &[7; 32], "cli", 20, 100)
        .await
        .unwrap();
    assert!(matches!(
        store.create_token(ann.id, &[7; 32], "again", 21, 100).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(
        store.user_by_token(&[7; 32], 30).await.unwrap().unwrap().id,
        ann.id
    );
    assert!(store.user_by_token(&[8; 32], 30).await.unwrap().is_none());
    assert!(
        store.user_by_token(&[7; 32], 100).await.unwrap().is_none(),
        "expired at its expiry time"
    );

    // Listed for their owner only, newest first; revoked one by one or all at once.
    let bob = store
        .create_user("bob", Role::Student, None, 1)
        .await
        .unwrap();
    let script = store
        .create_token(ann.id, &[9; 32], "script", 40, 500)
        .await
        .unwrap();
    let bobs = store
        .create_token(bob.id, &[10; 32], "bob's", 41, 500)
        .await
        .unwrap();
    let listed = store.tokens(ann.id).await.unwrap();
    assert_eq!(
        listed
            .iter()
            .map(|t| (t.id, t.label.as_str(), t.created_at, t.expires_at))
            .collect::<Vec<_>>(),
        [(script, "script", 40, 500), (cli, "cli", 20, 100)]
    );
    assert_eq!(listed[1].last_used_at, Some(30));
    assert!(!store.delete_token(ann.id, bobs).await.unwrap(), "not hers");
    assert!(store.user_by_token(&[10; 32], 50).await.unwrap().is_some());
    assert!(store.delete_token(ann.id, script).await.unwrap());
    assert!(store.user_by_token(&[9; 32], 50).await.unwrap().is_none());
    assert_eq!(store.delete_expired_tokens(100).await.unwrap(), 1);
    assert!(store.tokens(ann.id).await.unwrap().is_empty());
    assert_eq!(store.delete_user_tokens(bob.id).await.unwrap(), 1);
    assert!(store.user_by_token(&[10; 32], 50).await.unwrap().is_none());

    // Vietnamese names that differ by their marks are different names.
    for name in ["\u{110}\u{1ee9}c", "Duc", "\u{110}uc"] {
        store
            .create_user(name, Role::Student, None, 60)
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

async fn sessions_expire(store: &Store) {
    let user = student(store, "sam").await;
    let session = Session {
        id: "abc".into(),
        user_id: user,
        data: "{}".into(),
        expires_at: 1000,
    };
    store.put_session(&session).await.unwrap();
    assert_eq!(
        store.session("abc", 999).await.unwrap(),
        Some(session.clone())
    );
    assert_eq!(
        store.session("abc", 1000).await.unwrap(),
        None,
        "expired at its expiry time"
    );
    let renewed = Session {
        expires_at: 5000,
        data: "{\"csrf\":1}".into(),
        ..session
    };
    store.put_session(&renewed).await.unwrap();
    assert_eq!(store.session("abc", 1000).await.unwrap(), Some(renewed));
    store
        .put_session(&Session {
            id: "old".into(),
            user_id: user,
            data: "{}".into(),
            expires_at: 10,
        })
        .await
        .unwrap();
    assert_eq!(store.delete_expired_sessions(100).await.unwrap(), 1);
    store.delete_session("abc").await.unwrap();
    assert_eq!(store.session("abc", 0).await.unwrap(), None);
}

async fn problem_versions_are_immutable(store: &Store) {
    let v1 = ProblemVersion {
        slug: "stones".into(),
        version: 1,
        digest: "d1".into(),
        origin: "builtin".into(),
        created_at: 5,
    };
    store.record_problem_version(&v1).await.unwrap();
    store.record_problem_version(&v1).await.unwrap(); // recorded again at every start: fine
    let changed = ProblemVersion {
        digest: "d2".into(),
        ..v1.clone()
    };
    assert!(matches!(
        store.record_problem_version(&changed).await,
        Err(StoreError::Conflict(_))
    ));
    store
        .record_problem_version(&ProblemVersion {
            version: 2,
            ..changed
        })
        .await
        .unwrap();
    assert_eq!(store.problem_version("stones", 1).await.unwrap(), Some(v1));
    assert_eq!(store.problem_version("stones", 3).await.unwrap(), None);
}

async fn a_submission_is_judged_once(store: &Store) {
    let user = student(store, "sue").await;
    let id = store
        .create_submission(&program(user, "stones", 0), 100)
        .await
        .unwrap();
    let queued = store.submission(id).await.unwrap().unwrap();
    assert_eq!(
        (
            queued.status,
            queued.verdict.map(Verdict::as_str),
            queued.created_at
        ),
        (SubmissionStatus::Queued, None, 100)
    );
    assert_eq!(
        store.submission_source(id).await.unwrap().as_deref(),
        Some(&b"int main() {}"[..])
    );

    let claimed = store.claim("w1", 200, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(
        (claimed.id, claimed.attempts, claimed.language.as_deref()),
        (id, 1, Some("cpp20"))
    );
    assert!(
        store.claim("w2", 201, 60_000, 3).await.unwrap().is_none(),
        "nothing else queued"
    );
    assert_eq!(
        store.submission(id).await.unwrap().unwrap().status,
        SubmissionStatus::Judging
    );

    // The last one failed on a test whose data the student sees: it keeps that data, the
    // message quoting it apart from the one naming the place, and, had the problem been
    // interactive, its games move by move.
    let shown = TestRow {
        message: Some("line 1 is wrong".into()),
        detail: Some("line 1: expected \"First\", read \"Second\"".into()),
        shown: Some(Shown {
            input: "2 4\n2 3\n".into(),
            expected: "First\n".into(),
            output: "Second\n".into(),
        }),
        transcript: Some(Transcript {
            games: vec![GameRecord {
                start: "(1, 2)".into(),
                start_value: Value {
                    win: true,
                    grundy: Some(3),
                },
                side: Some(Side::First),
                moves: vec![MoveRecord {
                    by: Mover::Program,
                    text: "1 1".into(),
                    after: "(0, 2)".into(),
                    value: Value {
                        win: true,
                        grundy: Some(2),
                    },
                }],
                mistake: Some("game 1, move 1: from (1, 2) you took 1 from pile 1".into()),
            }],
        }),
        ..test_row(2, "wrong_answer")
    };
    for row in [
        test_row(0, "accepted"),
        test_row(1, "accepted"),
        shown.clone(),
    ] {
        assert!(store.record_test(id, "w1", &row).await.unwrap());
    }
    assert!(store.finish(id, "w1", &accepted(1), 300).await.unwrap());
    assert!(
        !store.finish(id, "w1", &accepted(1), 301).await.unwrap(),
        "written once"
    );
    let done = store.submission(id).await.unwrap().unwrap();
    assert_eq!(
        (
            done.status,
            done.verdict.map(Verdict::as_str),
            done.score,
            done.problem_version,
            done.judged_at
        ),
        (
            SubmissionStatus::Done,
            Some("accepted"),
            Some(100),
            Some(1),
            Some(300)
        )
    );
    let tests = store.test_results(id).await.unwrap();
    assert_eq!(
        tests.iter().map(|t| t.position).collect::<Vec<_>>(),
        [0, 1, 2]
    );
    assert_eq!(tests[1], test_row(1, "accepted"));
    assert_eq!(tests[1].shown, None);
    assert_eq!(tests[2], shown);
    assert!(
        store
            .claim("w2", 10_000_000, 60_000, 3)
            .await
            .unwrap()
            .is_none(),
        "done is never claimed"
    );
}

async fn a_dead_workers_submission_is_judged_again_and_the_stale_worker_writes_nothing(
    store: &Store,
) {
    let user = student(store, "dan").await;
    let id = store
        .create_submission(&program(user, "nim", 0), 0)
        .await
        .unwrap();
    assert_eq!(store.claim("w1", 0, 1000, 3).await.unwrap().unwrap().id, id);
    assert!(
        store
            .record_test(id, "w1", &test_row(0, "accepted"))
            .await
            .unwrap()
    );
    assert!(
        store.heartbeat(id, "w1", 500, 1000).await.unwrap(),
        "lease now ends at 1500"
    );
    assert!(
        store.claim("w2", 1200, 1000, 3).await.unwrap().is_none(),
        "the lease still holds"
    );

    // w1 dies; at 1600 its lease has run out.
    let again = store.claim("w2", 1600, 1000, 3).await.unwrap().unwrap();
    assert_eq!((again.id, again.attempts), (id, 2));
    assert!(
        store.test_results(id).await.unwrap().is_empty(),
        "the dead attempt's results are gone"
    );

    assert!(!store.heartbeat(id, "w1", 1700, 1000).await.unwrap());
    assert!(
        !store
            .record_test(id, "w1", &test_row(0, "wrong_answer"))
            .await
            .unwrap()
    );
    assert!(
        !store
            .finish(
                id,
                "w1",
                &Outcome {
                    verdict: Verdict::WrongAnswer,
                    ..accepted(1)
                },
                1700
            )
            .await
            .unwrap()
    );
    assert!(store.test_results(id).await.unwrap().is_empty());

    assert!(
        store
            .record_test(id, "w2", &test_row(0, "accepted"))
            .await
            .unwrap()
    );
    assert!(store.finish(id, "w2", &accepted(1), 1800).await.unwrap());
    let done = store.submission(id).await.unwrap().unwrap();
    assert_eq!(
        (done.verdict.map(Verdict::as_str), done.attempts),
        (Some("accepted"), 2)
    );
    assert_eq!(store.test_results(id).await.unwrap().len(), 1);
}

async fn rejudging_takes_a_submission_from_its_worker(store: &Store) {
    let user = student(store, "rex").await;
    let first = store
        .create_submission(&program(user, "stones", 0), 0)
        .await
        .unwrap();
    let second = store
        .create_submission(&program(user, "stones", 0), 0)
        .await
        .unwrap();
    let other = store
        .create_submission(&program(user, "nim", 0), 0)
        .await
        .unwrap();
    let claimed = store.claim("w1", 0, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(claimed.id, first);
    assert!(
        store
            .record_test(first, "w1", &test_row(0, "accepted"))
            .await
            .unwrap()
    );
    assert!(store.finish(first, "w1", &accepted(1), 10).await.unwrap());
    assert_eq!(
        store.claim("w1", 20, 60_000, 3).await.unwrap().unwrap().id,
        second
    );

    assert!(store.rejudge(first, 25).await.unwrap());
    assert!(!store.rejudge(999_999, 25).await.unwrap());
    let back = store.submission(first).await.unwrap().unwrap();
    assert_eq!(
        (
            back.status,
            back.verdict.map(Verdict::as_str),
            back.attempts
        ),
        (SubmissionStatus::Queued, None, 0)
    );
    assert!(store.test_results(first).await.unwrap().is_empty());

    // Rejudging the whole problem takes `second` from w1, whose result no longer counts.
    assert_eq!(store.rejudge_problem("stones", None, 30).await.unwrap(), 2);
    assert!(!store.finish(second, "w1", &accepted(1), 30).await.unwrap());
    let mut claimed = BTreeSet::new();
    while let Some(c) = store.claim("w2", 40, 60_000, 3).await.unwrap() {
        assert!(store.finish(c.id, "w2", &accepted(1), 40).await.unwrap());
        claimed.insert(c.id);
    }
    assert_eq!(claimed, BTreeSet::from([first, second, other]));
}

async fn priority_then_age(store: &Store) {
    let (pia, pib, pic, pid) = (
        student(store, "pia").await,
        student(store, "pib").await,
        student(store, "pic").await,
        student(store, "pid").await,
    );
    let old_low = store
        .create_submission(&program(pia, "a", 0), 0)
        .await
        .unwrap();
    let new_high = store
        .create_submission(&program(pib, "b", 5), 1)
        .await
        .unwrap();
    // Same priority as new_high but created later: the older id goes first.
    let later_high = store
        .create_submission(&program(pic, "c", 5), 2)
        .await
        .unwrap();
    // Judged in no time: nobody has had more judging than anybody else.
    let claim_and_finish = |now: i64| async move {
        let c = store.claim("w", now, 60_000, 3).await.unwrap()?;
        assert!(store.finish(c.id, "w", &accepted(1), now).await.unwrap());
        Some(c.id)
    };
    let mut got = Vec::new();
    while let Some(id) = claim_and_finish(10).await {
        got.push(id);
    }
    assert_eq!(got, [new_high, later_high, old_low]);

    // A rejudge waits behind fresh submissions, even older ones.
    assert!(store.rejudge(old_low, 15).await.unwrap());
    let fresh = store
        .create_submission(&program(pid, "d", 0), 3)
        .await
        .unwrap();
    assert_eq!(claim_and_finish(20).await, Some(fresh));
    assert_eq!(claim_and_finish(20).await, Some(old_low));
}

/// The queue's oldest age and a claim's wait run from when a submission was queued: a rejudge
/// of an old submission has waited since the rejudge, not since the submission was made.
async fn a_wait_counts_from_when_it_was_queued(store: &Store) {
    let (amy, ben) = (student(store, "amy").await, student(store, "ben").await);
    let old = store
        .create_submission(&program(amy, "nim", priority::ASSIGNMENT), 1_000)
        .await
        .unwrap();
    let claimed = store.claim("w", 2_000, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(
        (claimed.id, claimed.priority, claimed.queued_at),
        (old, priority::ASSIGNMENT, 1_000)
    );
    assert!(store.finish(old, "w", &accepted(1), 3_000).await.unwrap());

    let fresh = store
        .create_submission(&program(ben, "nim", priority::PRACTICE), 4_000)
        .await
        .unwrap();
    assert!(store.rejudge(old, 5_000).await.unwrap());
    let depth = |classes: Vec<grundy_store::QueueClass>| {
        classes
            .iter()
            .map(|c| (c.priority, c.queued, c.oldest_queued_at))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        depth(store.queue_depth().await.unwrap()),
        [
            (priority::PRACTICE, 1, 4_000),
            (priority::REJUDGE, 1, 5_000)
        ]
    );
    assert_eq!(
        store
            .claim("w", 6_000, 60_000, 3)
            .await
            .unwrap()
            .unwrap()
            .id,
        fresh
    );
    let again = store.claim("w", 6_000, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(
        (again.id, again.priority, again.queued_at),
        (old, priority::REJUDGE, 5_000)
    );
    assert!(store.queue_depth().await.unwrap().is_empty());

    // A whole problem rejudged is queued at that moment too.
    assert!(store.finish(old, "w", &accepted(1), 7_000).await.unwrap());
    assert!(store.finish(fresh, "w", &accepted(1), 7_000).await.unwrap());
    assert_eq!(store.rejudge_problem("nim", None, 8_000).await.unwrap(), 2);
    assert_eq!(
        depth(store.queue_depth().await.unwrap()),
        [(priority::REJUDGE, 2, 8_000)]
    );
}

/// Within a class, the person who has had the least judging lately goes first, and nobody has
/// two submissions judged at once: one student's looping programs do not hold up a classmate.
async fn the_queue_is_fair_between_people(store: &Store) {
    let hog = student(store, "hog").await;
    let (ann, bob, cid) = (
        student(store, "ann").await,
        student(store, "bob").await,
        student(store, "cid").await,
    );
    let mut hogs = Vec::new();
    for t in 0..4 {
        hogs.push(
            store
                .create_submission(&program(hog, "stones", priority::PRACTICE), t)
                .await
                .unwrap(),
        );
    }
    let anns = store
        .create_submission(&program(ann, "nim", priority::PRACTICE), 10)
        .await
        .unwrap();
    let bobs = store
        .create_submission(&program(bob, "nim", priority::ASSIGNMENT), 11)
        .await
        .unwrap();
    // Queued: Bob's homework first, then the oldest practice; Ann waits behind Hog's four.
    assert_eq!(store.queue_ahead(bobs, 100).await.unwrap(), Some(0));
    assert_eq!(store.queue_ahead(hogs[0], 100).await.unwrap(), Some(1));
    assert_eq!(store.queue_ahead(anns, 100).await.unwrap(), Some(5));
    assert_eq!(
        store
            .queue_depth()
            .await
            .unwrap()
            .iter()
            .map(|c| (c.priority, c.queued, c.oldest_queued_at))
            .collect::<Vec<_>>(),
        [(priority::ASSIGNMENT, 1, 11), (priority::PRACTICE, 5, 0)]
    );

    let claim = |w: &'static str, now: i64| async move {
        store.claim(w, now, 60_000, 3).await.unwrap().map(|c| c.id)
    };
    assert_eq!(claim("w1", 100).await, Some(bobs));
    assert_eq!(claim("w2", 100).await, Some(hogs[0]));
    // Hog has one being judged: his others wait, Ann's goes.
    assert_eq!(claim("w3", 100).await, Some(anns));
    assert_eq!(
        claim("w4", 100).await,
        None,
        "Hog's next waits for his first"
    );
    assert_eq!(store.queue_ahead(anns, 100).await.unwrap(), None, "judging");
    assert!(store.finish(anns, "w3", &accepted(1), 1_100).await.unwrap());
    assert!(store.finish(bobs, "w1", &accepted(1), 1_100).await.unwrap());
    // Hog's first took a minute (it looped); Ann's took a second. Cid comes later than all of
    // Hog's, and Ann submits again: both go before Hog's second.
    assert!(
        store
            .finish(hogs[0], "w2", &accepted(1), 60_100)
            .await
            .unwrap()
    );
    let cids = store
        .create_submission(&program(cid, "nim", priority::PRACTICE), 60_200)
        .await
        .unwrap();
    let anns_again = store
        .create_submission(&program(ann, "nim", priority::PRACTICE), 60_300)
        .await
        .unwrap();
    assert_eq!(store.queue_ahead(cids, 60_400).await.unwrap(), Some(0));
    assert_eq!(
        store.queue_ahead(anns_again, 60_400).await.unwrap(),
        Some(1)
    );
    assert_eq!(store.queue_ahead(hogs[1], 60_400).await.unwrap(), Some(2));
    assert_eq!(claim("w1", 60_400).await, Some(cids));
    assert_eq!(claim("w2", 60_400).await, Some(anns_again));
    assert_eq!(claim("w3", 60_400).await, Some(hogs[1]));
    // Ten minutes on, Hog's minute no longer counts against him.
    for (id, worker) in [(cids, "w1"), (anns_again, "w2"), (hogs[1], "w3")] {
        assert!(
            store
                .finish(id, worker, &accepted(1), 60_500)
                .await
                .unwrap()
        );
    }
    let later = 60_500 + grundy_store::FAIRNESS_WINDOW_MS + 1;
    let anns_last = store
        .create_submission(&program(ann, "nim", priority::PRACTICE), later)
        .await
        .unwrap();
    assert_eq!(store.queue_ahead(hogs[2], later).await.unwrap(), Some(0));
    assert_eq!(store.queue_ahead(anns_last, later).await.unwrap(), Some(2));
}

async fn exhausted_submissions_end_as_internal_errors(store: &Store) {
    let user = student(store, "eve").await;
    let id = store
        .create_submission(&program(user, "stones", 0), 0)
        .await
        .unwrap();
    for attempt in 1..=3 {
        let now = attempt * 10_000;
        let c = store.claim("w", now, 1000, 3).await.unwrap().unwrap();
        assert_eq!(c.attempts, attempt);
    }
    assert!(
        store.claim("w", 35_000, 1000, 3).await.unwrap().is_none(),
        "an exhausted submission is not claimed a fourth time"
    );
    assert_eq!(store.fail_exhausted(35_000, 3).await.unwrap(), 1);
    let failed = store.submission(id).await.unwrap().unwrap();
    assert_eq!(
        (failed.status, failed.verdict.map(Verdict::as_str)),
        (SubmissionStatus::Done, Some("internal_error"))
    );
    assert!(store.claim("w", 50_000, 1000, 3).await.unwrap().is_none());
}

async fn released_work_goes_back_to_the_queue(store: &Store) {
    let user = student(store, "ray").await;
    let id = store
        .create_submission(&program(user, "stones", 0), 0)
        .await
        .unwrap();
    store.claim("w1", 0, 60_000, 3).await.unwrap().unwrap();
    assert!(
        !store.release(id, "w2").await.unwrap(),
        "only the holder can release"
    );
    assert!(store.release(id, "w1").await.unwrap());
    let again = store.claim("w2", 1, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(
        (again.id, again.attempts),
        (id, 1),
        "a release is not an attempt"
    );
}

/// Submissions until `heard` rings: the watcher listens from then on (it starts listening in
/// the background, and a notice sent before that is lost).
async fn until_heard(store: &Store, user: i64, heard: &tokio::sync::Notify) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        store
            .create_submission(&program(user, "stones", 0), 0)
            .await
            .unwrap();
        if tokio::time::timeout(Duration::from_millis(200), heard.notified())
            .await
            .is_ok()
        {
            return;
        }
        assert!(Instant::now() < deadline, "the queue watcher heard nothing");
    }
}

/// Work given back wakes other processes' workers as a new submission does, and the queue's
/// watcher ends, giving its connection back, when it is stopped or the store closes: it used to
/// keep its connection, and closing the pool waits for every connection, so `grundy worker` on
/// PostgreSQL never ended.
async fn the_queue_watcher_hears_notices_and_lets_the_store_close(store: &Store) {
    let user = student(store, "wes").await;
    let watcher = |stop: tokio::sync::oneshot::Receiver<()>| {
        let heard = Arc::new(tokio::sync::Notify::new());
        let store = store.clone();
        let ring = heard.clone();
        let task = tokio::spawn(async move {
            store
                .watch_queue(move || ring.notify_one(), async move {
                    let _ = stop.await;
                })
                .await
        });
        (heard, task)
    };
    let (stop_first, stopped) = tokio::sync::oneshot::channel();
    let (first_heard, first) = watcher(stopped);
    let (_never_stopped, never) = tokio::sync::oneshot::channel();
    let (second_heard, second) = watcher(never);
    let within = Duration::from_secs(10);
    if let Store::Postgres(pool) = store {
        until_heard(store, user, &first_heard).await;
        until_heard(store, user, &second_heard).await;

        let mut listener = sqlx::postgres::PgListener::connect_with(pool)
            .await
            .unwrap();
        listener.listen("grundy_queue").await.unwrap();
        // Ahead of the practice queued above, so the claim takes it.
        let other = student(store, "kim").await;
        let id = store
            .create_submission(&program(other, "nim", priority::ASSIGNMENT), 0)
            .await
            .unwrap();
        let claimed = store.claim("w1", 0, 60_000, 3).await.unwrap().unwrap();
        assert_eq!(claimed.id, id);
        assert!(store.release(id, "w1").await.unwrap());
        let mut notices = Vec::new();
        while notices.len() < 2 {
            let notice = tokio::time::timeout(within, listener.recv())
                .await
                .expect("a notice for the submission and one for its release")
                .unwrap();
            notices.push(notice.payload().to_owned());
        }
        assert_eq!(notices, [id.to_string(), id.to_string()]);
        drop(listener);
    }

    stop_first.send(()).unwrap();
    tokio::time::timeout(within, first)
        .await
        .expect("a stopped watcher ends")
        .unwrap()
        .unwrap();
    tokio::time::timeout(within, store.close())
        .await
        .expect("the store closes while a watcher listens");
    tokio::time::timeout(within, second)
        .await
        .expect("closing the store ends its watcher")
        .unwrap()
        .unwrap();
}

async fn listing_filters(store: &Store) {
    let a = student(store, "a").await;
    let b = student(store, "b").await;
    let mut ids = Vec::new();
    for (user, problem) in [(a, "stones"), (b, "stones"), (a, "nim"), (a, "stones")] {
        ids.push(
            store
                .create_submission(&program(user, problem, 0), 0)
                .await
                .unwrap(),
        );
    }
    let all: Vec<i64> = store
        .submissions(&SubmissionQuery {
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(all, [ids[3], ids[2], ids[1], ids[0]], "newest first");
    let mine: Vec<i64> = store
        .submissions(&SubmissionQuery {
            user: Some(a),
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(mine, [ids[3], ids[2], ids[0]]);
    let mine_on_stones: Vec<i64> = store
        .submissions(&SubmissionQuery {
            user: Some(a),
            problem: Some("stones"),
            limit: 10,
            ..Default::default()
        })
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(mine_on_stones, [ids[3], ids[0]]);
    assert_eq!(
        store
            .submissions(&SubmissionQuery {
                problem: Some("nim"),
                limit: 10,
                ..Default::default()
            })
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        store
            .submissions(&SubmissionQuery {
                limit: 2,
                ..Default::default()
            })
            .await
            .unwrap()
            .len(),
        2
    );
    let next_page: Vec<i64> = store
        .submissions(&SubmissionQuery {
            before: Some(ids[2]),
            ..Default::default()
        })
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(next_page, [ids[1], ids[0]], "the page after ids[2]");
    let claimed = store.claim("w", 1, 60_000, 3).await.unwrap().unwrap();
    assert!(
        store
            .finish(claimed.id, "w", &accepted(1), 2)
            .await
            .unwrap()
    );
    let accepted_ones: Vec<i64> = store
        .submissions(&SubmissionQuery {
            verdict: Some(Verdict::Accepted),
            ..Default::default()
        })
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect();
    assert_eq!(accepted_ones, [claimed.id]);
}

async fn users_are_listed_and_their_roles_changed(store: &Store) {
    let zed = student(store, "zed").await;
    let amy = student(store, "amy").await;
    let names: Vec<String> = store
        .users()
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.name)
        .collect();
    assert_eq!(names, ["amy", "zed"], "by name");
    assert!(store.set_role(zed, Role::Teacher).await.unwrap());
    assert_eq!(
        store.user_by_id(zed).await.unwrap().unwrap().role,
        Role::Teacher
    );
    assert_eq!(
        store.user_by_id(amy).await.unwrap().unwrap().role,
        Role::Student
    );
    assert!(
        !store.set_role(9_999, Role::Admin).await.unwrap(),
        "no such user"
    );
}

async fn problem_marks_say_solved_attempted_and_best(store: &Store) {
    let sue = student(store, "sue").await;
    let other = student(store, "other").await;
    // sue: stones wrong at 30 then accepted; nim wrong at 0 and one still queued.
    let verdicts = [
        ("stones", "wrong_answer", 30),
        ("stones", "accepted", 100),
        ("nim", "wrong_answer", 0),
    ];
    for (problem, verdict, score) in verdicts {
        store
            .create_submission(&program(sue, problem, 0), 0)
            .await
            .unwrap();
        let claimed = store.claim("w", 1, 60_000, 3).await.unwrap().unwrap();
        let outcome = Outcome {
            verdict: Verdict::parse(verdict).unwrap(),
            score,
            max_score: 100,
            compile_message: None,
            problem_version: 1,
        };
        assert!(store.finish(claimed.id, "w", &outcome, 2).await.unwrap());
    }
    store
        .create_submission(&program(sue, "nim", 0), 0)
        .await
        .unwrap();
    store
        .create_submission(&program(other, "wythoff", 0), 0)
        .await
        .unwrap();
    let marks = store.problem_marks(sue).await.unwrap();
    assert_eq!(
        marks,
        [
            ProblemMark {
                problem: "nim".into(),
                attempts: 2,
                best_score: Some(0),
                solved: false
            },
            ProblemMark {
                problem: "stones".into(),
                attempts: 2,
                best_score: Some(100),
                solved: true
            },
        ]
    );
    assert!(store.problem_marks(9_999).await.unwrap().is_empty());
}

async fn concurrent_workers_never_claim_one_submission_twice(store: &Store) {
    let mut queued = BTreeSet::new();
    for who in 0..6 {
        let user = student(store, &format!("many{who}")).await;
        for _ in 0..10 {
            queued.insert(
                store
                    .create_submission(&program(user, "stones", 0), 0)
                    .await
                    .unwrap(),
            );
        }
    }
    let mut workers = Vec::new();
    for w in 0..6 {
        let store = store.clone();
        workers.push(tokio::spawn(async move {
            let name = format!("w{w}");
            let mut mine = Vec::new();
            // A worker that finds nothing to take (every waiting author busy) looks again.
            loop {
                let Some(c) = store.claim(&name, 0, 60_000, 3).await.unwrap() else {
                    if store.queue_depth().await.unwrap().is_empty() {
                        break;
                    }
                    tokio::task::yield_now().await;
                    continue;
                };
                let judging = store
                    .submissions(&SubmissionQuery {
                        user: Some(c.user_id),
                        ..SubmissionQuery::default()
                    })
                    .await
                    .unwrap()
                    .into_iter()
                    .filter(|s| s.status == SubmissionStatus::Judging)
                    .count();
                assert_eq!(judging, 1, "one author's two submissions judged at once");
                assert!(store.finish(c.id, &name, &accepted(1), 1).await.unwrap());
                mine.push(c.id);
            }
            mine
        }));
    }
    let mut seen = Vec::new();
    for worker in workers {
        seen.extend(worker.await.unwrap());
    }
    let unique: BTreeSet<i64> = seen.iter().copied().collect();
    assert_eq!(seen.len(), unique.len(), "a submission was claimed twice");
    assert_eq!(unique, queued);
}

/// A custom problem to store: `content` as stored, `unpacked` bytes unpacked.
fn custom<'a>(
    slug: &'a str,
    origin: &'a str,
    owner: i64,
    content: &'a [u8],
    unpacked: i64,
    now: i64,
) -> NewCustomProblem<'a> {
    NewCustomProblem {
        slug,
        origin,
        owner,
        content,
        unpacked_bytes: unpacked,
        now,
    }
}

async fn put(store: &Store, new: NewCustomProblem<'_>) -> Put {
    store.put_custom_problem(&new, None).await.unwrap()
}

async fn custom_problems_are_versioned_and_owned(store: &Store) {
    let owner = student(store, "teacher").await;
    let other = student(store, "other").await;
    let draft = |version| Put::Stored {
        version,
        published: false,
    };
    assert_eq!(
        put(
            store,
            custom("my-nim", "package", owner, b"zip v1", 100, 10)
        )
        .await,
        draft(1)
    );
    assert_eq!(
        put(
            store,
            custom("my-nim", "package", owner, b"zip v2", 200, 20)
        )
        .await,
        draft(2)
    );
    let taken = store
        .put_custom_problem(&custom("my-nim", "variant", other, b"theirs", 0, 30), None)
        .await;
    assert!(matches!(taken, Err(StoreError::Conflict(_))), "{taken:?}");
    let stored = store.custom_problem("my-nim").await.unwrap().unwrap();
    assert_eq!(
        (
            stored.version,
            stored.content.as_slice(),
            stored.owner_id,
            stored.origin.as_str()
        ),
        (2, &b"zip v2"[..], owner, "package")
    );
    put(store, custom("a-variant", "variant", other, b"{}", 0, 40)).await;
    let infos = store.custom_problem_infos().await.unwrap();
    let slugs: Vec<&str> = infos.iter().map(|p| p.slug.as_str()).collect();
    assert_eq!(slugs, ["a-variant", "my-nim"]);
    assert_eq!(
        store.custom_problem_info("my-nim").await.unwrap(),
        Some(CustomProblemInfo {
            slug: "my-nim".into(),
            origin: "package".into(),
            owner_id: owner,
            version: 2,
            published_at: None,
            stored_bytes: 6,
            unpacked_bytes: 200,
        })
    );
    assert!(store.custom_problem("absent").await.unwrap().is_none());
    assert!(store.custom_problem_info("absent").await.unwrap().is_none());
}

/// Each owner's problems count against a quota (stored plus unpacked bytes, the version being
/// replaced left out); new problems are drafts until published, and stay published through new
/// versions.
async fn custom_problems_keep_to_a_quota_and_start_as_drafts(store: &Store) {
    let tom = teacher(store, "tom").await;
    let zoe = teacher(store, "zoe").await;
    let quota = Some(1000);
    let first = custom("first", "package", tom, &[7; 100], 500, 1);
    assert_eq!(first.charge(), 600);
    assert_eq!(
        store.put_custom_problem(&first, quota).await.unwrap(),
        Put::Stored {
            version: 1,
            published: false
        }
    );
    // 600 + 100 + 301 > 1000: refused, and nothing is stored.
    let bomb = custom("bomb", "package", tom, &[7; 100], 301, 2);
    assert_eq!(
        store.put_custom_problem(&bomb, quota).await.unwrap(),
        Put::OverQuota { used: 600 }
    );
    assert!(store.custom_problem_info("bomb").await.unwrap().is_none());
    // Exactly at the quota is allowed; someone else's problems count for them only.
    let fits = custom("fits", "package", tom, &[7; 100], 300, 3);
    assert!(matches!(
        store.put_custom_problem(&fits, quota).await.unwrap(),
        Put::Stored { version: 1, .. }
    ));
    put(store, custom("zoes", "package", zoe, &[7; 100], 5000, 4)).await;
    assert_eq!(store.custom_problem_usage(tom, "").await.unwrap(), 1000);
    assert_eq!(store.custom_problem_usage(tom, "first").await.unwrap(), 400);
    // A new version replaces the old one's share: smaller fits, larger does not.
    let smaller = custom("first", "package", tom, &[7; 50], 100, 5);
    assert!(matches!(
        store.put_custom_problem(&smaller, quota).await.unwrap(),
        Put::Stored { version: 2, .. }
    ));
    let larger = custom("first", "package", tom, &[7; 50], 600, 6);
    assert_eq!(
        store.put_custom_problem(&larger, quota).await.unwrap(),
        Put::OverQuota { used: 400 }
    );
    assert_eq!(
        store
            .custom_problem("first")
            .await
            .unwrap()
            .unwrap()
            .version,
        2
    );
    // Someone else's slug is a conflict even when the quota is full.
    let theirs = custom("zoes", "package", tom, &[7; 100], 5000, 7);
    assert!(matches!(
        store.put_custom_problem(&theirs, quota).await,
        Err(StoreError::Conflict(_))
    ));

    // Publishing: once, for good; a new version stays published.
    assert!(store.publish_custom_problem("first", 10).await.unwrap());
    assert!(store.publish_custom_problem("first", 20).await.unwrap());
    assert!(!store.publish_custom_problem("absent", 20).await.unwrap());
    let info = store.custom_problem_info("first").await.unwrap().unwrap();
    assert_eq!(info.published_at, Some(10));
    assert_eq!(
        put(store, custom("first", "package", tom, &[7; 50], 100, 30)).await,
        Put::Stored {
            version: 3,
            published: true
        }
    );
    // Two uploads at once with room for one: exactly one is stored.
    let ria = teacher(store, "ria").await;
    let (a, b) = (
        custom("race-a", "package", ria, &[7; 100], 500, 8),
        custom("race-b", "package", ria, &[7; 100], 500, 8),
    );
    let (a, b) = tokio::join!(
        store.put_custom_problem(&a, quota),
        store.put_custom_problem(&b, quota)
    );
    let stored = [a.unwrap(), b.unwrap()]
        .into_iter()
        .filter(|put| matches!(put, Put::Stored { .. }))
        .count();
    assert_eq!(stored, 1);
    assert_eq!(store.custom_problem_usage(ria, "").await.unwrap(), 600);

    store.set_unpacked_bytes("first", 3, 250).await.unwrap();
    store.set_unpacked_bytes("first", 2, 999).await.unwrap();
    let info = store.custom_problem_info("first").await.unwrap().unwrap();
    assert_eq!((info.stored_bytes, info.unpacked_bytes), (50, 250));
}

/// The facts that decide who sees a draft: whom one teaches with, and which problems the
/// assignments of one's courses list.
async fn drafts_are_seen_through_courses(store: &Store) {
    let tom = teacher(store, "tom").await;
    let tess = teacher(store, "tess").await;
    let zed = teacher(store, "zed").await;
    let ann = student(store, "ann").await;
    let games = store
        .create_course("Games", "GAME2345", tom, 1)
        .await
        .unwrap();
    store
        .add_member(
            games.id,
            tess,
            MemberRole::Teacher,
            MemberOrigin::Invitation,
            1,
        )
        .await
        .unwrap();
    store
        .add_member(
            games.id,
            ann,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            1,
        )
        .await
        .unwrap();
    let other = store
        .create_course("Other", "OTHR2345", zed, 1)
        .await
        .unwrap();
    store
        .add_member(
            other.id,
            tess,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            1,
        )
        .await
        .unwrap();
    assert_eq!(
        store.teachers_sharing_with(tess).await.unwrap(),
        [tom, tess]
    );
    assert!(store.teachers_sharing_with(ann).await.unwrap().is_empty());
    assert_eq!(store.teachers_sharing_with(zed).await.unwrap(), [zed]);
    // A co-teacher whom nobody asked (a membership from before invitations) shares nothing of
    // theirs: Max teaches Games too, but Tom and Tess do not see his drafts.
    let max = teacher(store, "max").await;
    store
        .add_member(games.id, max, MemberRole::Teacher, MemberOrigin::Course, 2)
        .await
        .unwrap();
    assert_eq!(
        store.teachers_sharing_with(tess).await.unwrap(),
        [tom, tess]
    );
    assert_eq!(store.teachers_sharing_with(tom).await.unwrap(), [tom, tess]);
    assert_eq!(
        store.teachers_sharing_with(max).await.unwrap(),
        [tom, tess, max]
    );

    store
        .create_assignment(games.id, &homework(&["nim", "toms-draft"]), 1)
        .await
        .unwrap();
    let listed = |listings: Vec<Listing>| {
        let mut listed: Vec<(String, MemberRole, i64)> = listings
            .into_iter()
            .map(|l| (l.problem, l.role, l.opens_at))
            .collect();
        listed.sort_by(|a, b| a.0.cmp(&b.0));
        listed
    };
    assert_eq!(
        listed(store.listings(ann).await.unwrap()),
        [
            ("nim".into(), MemberRole::Student, 100),
            ("toms-draft".into(), MemberRole::Student, 100)
        ]
    );
    assert_eq!(
        listed(store.listings(tess).await.unwrap()),
        [
            ("nim".into(), MemberRole::Teacher, 100),
            ("toms-draft".into(), MemberRole::Teacher, 100)
        ]
    );
    assert!(store.listings(zed).await.unwrap().is_empty());
}

async fn recent_submissions_are_counted_per_user(store: &Store) {
    let alice = student(store, "alice").await;
    let bob = student(store, "bob").await;
    for at in [100, 200, 300] {
        store
            .create_submission(&program(alice, "stones", 0), at)
            .await
            .unwrap();
    }
    store
        .create_submission(&program(bob, "stones", 0), 300)
        .await
        .unwrap();
    assert_eq!(store.count_submissions_since(alice, 200).await.unwrap(), 2);
    assert_eq!(store.count_submissions_since(alice, 301).await.unwrap(), 0);
    assert_eq!(store.count_submissions_since(bob, 0).await.unwrap(), 1);
}

async fn teacher(store: &Store, name: &str) -> i64 {
    store
        .create_user(name, Role::Teacher, Some("$argon2id$fake"), 1)
        .await
        .unwrap()
        .id
}

fn homework(problems: &[&str]) -> AssignmentSpec {
    AssignmentSpec {
        title: "Week 1".into(),
        opens_at: 100,
        due_at: 200,
        closes_at: 300,
        penalty_percent: 10,
        penalty_step_ms: 86_400_000,
        scoring: Scoring::Best,
        feedback: Feedback::Inputs,
        personal_tests: false,
        run_every_test: false,
        problems: problems.iter().map(|p| (*p).to_owned()).collect(),
    }
}

async fn ids(store: &Store, query: SubmissionQuery<'_>) -> Vec<i64> {
    let found = store.submissions(&query).await.unwrap();
    found.iter().map(|s| s.id).collect()
}

async fn courses_have_teachers_students_and_assignments(store: &Store) {
    let tom = teacher(store, "tom").await;
    let tess = teacher(store, "tess").await;
    let ann = student(store, "ann").await;
    let course = store
        .create_course("CGT 101", "ABCD2345", tom, 10)
        .await
        .unwrap();
    assert!(matches!(
        store.create_course("Other", "ABCD2345", tess, 10).await,
        Err(StoreError::Conflict(_))
    ));
    assert_eq!(
        store.course_by_code("ABCD2345").await.unwrap(),
        Some(course.clone())
    );
    assert_eq!(store.course_by_code("abcd2345").await.unwrap(), None);
    assert!(
        store
            .add_member(
                course.id,
                ann,
                MemberRole::Student,
                MemberOrigin::JoinCode,
                11
            )
            .await
            .unwrap()
    );
    assert!(
        !store
            .add_member(
                course.id,
                ann,
                MemberRole::Teacher,
                MemberOrigin::Invitation,
                12
            )
            .await
            .unwrap(),
        "already in"
    );
    assert!(
        store
            .add_member(
                course.id,
                tess,
                MemberRole::Teacher,
                MemberOrigin::Invitation,
                12
            )
            .await
            .unwrap()
    );
    let members: Vec<(String, MemberRole)> = store
        .members(course.id)
        .await
        .unwrap()
        .into_iter()
        .map(|m| (m.name, m.role))
        .collect();
    assert_eq!(
        members,
        [
            ("tess".to_owned(), MemberRole::Teacher),
            ("tom".to_owned(), MemberRole::Teacher),
            ("ann".to_owned(), MemberRole::Student),
        ]
    );
    assert_eq!(
        store.member_role(course.id, ann).await.unwrap(),
        Some(MemberRole::Student)
    );
    let mine = store.courses_of(ann).await.unwrap();
    assert_eq!(mine, [(course.clone(), MemberRole::Student)]);

    let created = store
        .create_assignment(course.id, &homework(&["nim", "stones", "chomp"]), 20)
        .await
        .unwrap();
    assert_eq!(
        created.spec.problems,
        ["nim", "stones", "chomp"],
        "in the order given"
    );
    let mut changed = homework(&["wythoff", "nim"]);
    changed.scoring = Scoring::Last;
    assert!(store.update_assignment(created.id, &changed).await.unwrap());
    assert!(
        !store
            .update_assignment(created.id + 100, &changed)
            .await
            .unwrap()
    );
    let found = store.assignment(created.id).await.unwrap().unwrap();
    assert_eq!(found.spec, changed);
    let mut bad = homework(&["nim"]);
    bad.closes_at = 150;
    assert!(
        store.create_assignment(course.id, &bad, 20).await.is_err(),
        "the schema keeps the times in order"
    );
    assert_eq!(store.assignments(course.id).await.unwrap(), [found]);

    store
        .set_extension(created.id, ann, Some(250))
        .await
        .unwrap();
    store
        .set_extension(created.id, ann, Some(260))
        .await
        .unwrap();
    let extensions = store.extensions(created.id).await.unwrap();
    assert_eq!((extensions.len(), extensions[0].due_at), (1, 260));
    store.set_extension(created.id, ann, None).await.unwrap();
    assert!(store.extensions(created.id).await.unwrap().is_empty());

    assert!(store.remove_member(course.id, ann).await.unwrap());
    assert!(!store.remove_member(course.id, ann).await.unwrap());
    assert!(store.courses_of(ann).await.unwrap().is_empty());

    let key = store.setting_or_insert("key", b"first").await.unwrap();
    assert_eq!(key, b"first");
    assert_eq!(
        store.setting_or_insert("key", b"second").await.unwrap(),
        b"first",
        "kept"
    );
}

async fn teachers_see_their_courses_submissions_only(store: &Store) {
    let tom = teacher(store, "tom").await;
    let zoe = teacher(store, "zoe").await;
    let ann = student(store, "ann").await;
    let bob = student(store, "bob").await;
    let course = store
        .create_course("CGT", "CODE2345", tom, 1)
        .await
        .unwrap();
    store
        .add_member(
            course.id,
            ann,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            1,
        )
        .await
        .unwrap();
    let homework = store
        .create_assignment(course.id, &homework(&["nim"]), 1)
        .await
        .unwrap();
    put(store, custom("zoes-game", "package", zoe, b"zip", 3, 1)).await;
    let mut for_homework = program(ann, "nim", 0);
    for_homework.assignment_id = Some(homework.id);
    for_homework.instance_seed = Some(-42);
    let ann_homework = store.create_submission(&for_homework, 5).await.unwrap();
    let ann_practice = store
        .create_submission(&program(ann, "stones", 0), 6)
        .await
        .unwrap();
    let bob_practice = store
        .create_submission(&program(bob, "stones", 0), 7)
        .await
        .unwrap();
    let bob_on_zoes = store
        .create_submission(&program(bob, "zoes-game", 0), 8)
        .await
        .unwrap();
    let tom_own = store
        .create_submission(&program(tom, "nim", 0), 9)
        .await
        .unwrap();

    let seen = |who: i64| SubmissionQuery {
        teacher: Some(who),
        ..Default::default()
    };
    assert_eq!(
        ids(store, seen(tom)).await,
        [tom_own, ann_homework],
        "not ann's practice: a course shows its teacher its assignments' work only"
    );
    assert!(
        ids(store, seen(zoe)).await.is_empty(),
        "owning a problem shows nobody's work on it"
    );
    let everyone = ids(store, SubmissionQuery::default()).await;
    assert_eq!(everyone.len(), 5);
    let in_homework = SubmissionQuery {
        assignment: Some(homework.id),
        ..Default::default()
    };
    assert_eq!(ids(store, in_homework).await, [ann_homework]);
    let stored = store.assignment_submissions(homework.id).await.unwrap();
    assert_eq!(stored.len(), 1);
    assert_eq!(
        (stored[0].assignment_id, stored[0].instance_seed),
        (Some(homework.id), Some(-42))
    );
    let claimed = store.claim("w", 10, 60_000, 3).await.unwrap().unwrap();
    assert_eq!(
        (claimed.id, claimed.instance_seed),
        (ann_homework, Some(-42))
    );
    assert!(!ids(store, seen(tom)).await.contains(&bob_practice));
    let _ = ann_practice;
    // Rejudging a problem as a teacher requeues only what they see.
    assert_eq!(
        store
            .rejudge_problem("zoes-game", Some(zoe), 50)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        store.rejudge_problem("nim", Some(tom), 50).await.unwrap(),
        2
    );
    assert_eq!(
        store.rejudge_problem("zoes-game", None, 50).await.unwrap(),
        1
    );
    let _ = bob_on_zoes;
}

async fn personal_draws_regenerate_unless_pinned(store: &Store) {
    let tom = teacher(store, "tom").await;
    let ann = student(store, "ann").await;
    let course = store
        .create_course("CGT", "CODE2345", tom, 1)
        .await
        .unwrap();
    let homework = store
        .create_assignment(course.id, &homework(&["nim"]), 1)
        .await
        .unwrap();
    let draw = store.instance_draw(homework.id, ann, "nim").await.unwrap();
    assert_eq!((draw.generation, draw.pinned), (0, false), "untouched");
    assert_eq!(
        store
            .regenerate_instance(homework.id, ann, "nim")
            .await
            .unwrap(),
        Some(1)
    );
    assert_eq!(
        store
            .regenerate_instance(homework.id, ann, "nim")
            .await
            .unwrap(),
        Some(2)
    );
    store
        .pin_instance(homework.id, ann, "nim", true)
        .await
        .unwrap();
    assert_eq!(
        store
            .regenerate_instance(homework.id, ann, "nim")
            .await
            .unwrap(),
        None
    );
    let draw = store.instance_draw(homework.id, ann, "nim").await.unwrap();
    assert_eq!((draw.generation, draw.pinned), (2, true));
    store
        .pin_instance(homework.id, ann, "nim", false)
        .await
        .unwrap();
    assert_eq!(
        store
            .regenerate_instance(homework.id, ann, "nim")
            .await
            .unwrap(),
        Some(3)
    );
    // Pinning an untouched draw keeps generation 0.
    store
        .pin_instance(homework.id, ann, "stones", true)
        .await
        .unwrap();
    let stones = store
        .instance_draw(homework.id, ann, "stones")
        .await
        .unwrap();
    assert_eq!((stones.generation, stones.pinned), (0, true));
}

async fn a_student_account_teaches_nothing(store: &Store) {
    let tom = teacher(store, "tom").await;
    let ann = student(store, "ann").await;
    let course = store
        .create_course("CGT", "CODE2345", tom, 1)
        .await
        .unwrap();
    let other = store
        .create_course("Old", "CODE6789", tom, 1)
        .await
        .unwrap();
    store
        .add_member(
            course.id,
            ann,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            1,
        )
        .await
        .unwrap();
    assert!(store.set_role(tom, Role::Student).await.unwrap());
    for id in [course.id, other.id] {
        assert_eq!(store.member_role(id, tom).await.unwrap(), None);
    }
    assert_eq!(
        store.member_role(course.id, ann).await.unwrap(),
        Some(MemberRole::Student),
        "only the demoted account's memberships end"
    );
    // Promotions and other roles leave memberships alone.
    let zoe = teacher(store, "zoe").await;
    store
        .add_member(
            course.id,
            zoe,
            MemberRole::Teacher,
            MemberOrigin::Invitation,
            2,
        )
        .await
        .unwrap();
    assert!(store.set_role(zoe, Role::Admin).await.unwrap());
    assert_eq!(
        store.member_role(course.id, zoe).await.unwrap(),
        Some(MemberRole::Teacher)
    );
    assert!(!store.set_role(999_999, Role::Student).await.unwrap());
}

async fn teachers_manage_only_accounts_their_courses_made(store: &Store) {
    let (tom, zoe) = (teacher(store, "tom").await, teacher(store, "zoe").await);
    let (ann, bob, cat, dan, eve) = (
        student(store, "ann").await,
        student(store, "bob").await,
        student(store, "cat").await,
        student(store, "dan").await,
        student(store, "eve").await,
    );
    let toms = store.create_course("A", "CODE2345", tom, 1).await.unwrap();
    let toms_too = store.create_course("A2", "CODE2346", tom, 1).await.unwrap();
    let zoes = store.create_course("B", "CODE6789", zoe, 1).await.unwrap();
    // Made by Tom's course A: Ann (who also joined A2), Bob (who also joined Zoe's B) and Eve
    // (taken out of A since). Made by B: Cat. Dan registered himself and joined A by its code.
    for (course, who) in [
        (toms.id, ann),
        (toms.id, bob),
        (toms.id, eve),
        (zoes.id, cat),
    ] {
        store.add_new_account(course, who, 1).await.unwrap();
    }
    for (course, who) in [(toms_too.id, ann), (zoes.id, bob), (toms.id, dan)] {
        store
            .add_member(course, who, MemberRole::Student, MemberOrigin::JoinCode, 1)
            .await
            .unwrap();
    }
    assert!(store.remove_member(toms.id, eve).await.unwrap());
    assert_eq!(
        store.membership(toms.id, ann).await.unwrap(),
        Some((MemberRole::Student, MemberOrigin::NewAccount))
    );
    assert_eq!(store.accounts_managed_by(tom).await.unwrap(), [ann, eve]);
    assert_eq!(store.accounts_managed_by(zoe).await.unwrap(), [cat]);
    // Co-teaching B, Tom reaches Bob (whose every course he now teaches) and Cat (made by B);
    // never Dan, whom no course of his made.
    store
        .add_member(
            zoes.id,
            tom,
            MemberRole::Teacher,
            MemberOrigin::Invitation,
            2,
        )
        .await
        .unwrap();
    assert_eq!(
        store.accounts_managed_by(tom).await.unwrap(),
        [ann, bob, cat, eve]
    );
    // A teacher's list: themselves, their courses' members, the accounts their courses made.
    let seen = |users: Vec<grundy_store::User>| -> Vec<String> {
        users.into_iter().map(|u| u.name).collect()
    };
    assert_eq!(
        seen(store.users_seen_by(zoe).await.unwrap()),
        ["bob", "cat", "tom", "zoe"]
    );
    let toms_list = seen(store.users_seen_by(tom).await.unwrap());
    assert_eq!(toms_list, ["ann", "bob", "cat", "dan", "eve", "tom", "zoe"]);
    let _nobody = teacher(store, "zed").await;
    assert_eq!(seen(store.users_seen_by(tom).await.unwrap()), toms_list);
}

/// An invitation is answered once: accepted (a membership by the member's act), declined (kept,
/// so nobody asks again), or withdrawn while it waits; joining with the code spends it.
async fn invitations_are_answered_once(store: &Store) {
    let tom = teacher(store, "tom").await;
    let tess = teacher(store, "tess").await;
    let (ann, bob, cat, dan) = (
        student(store, "ann").await,
        student(store, "bob").await,
        student(store, "cat").await,
        student(store, "dan").await,
    );
    let course = store
        .create_course("Games", "GAME2345", tom, 1)
        .await
        .unwrap();
    let invite = |who: i64, role: MemberRole| store.invite(course.id, who, role, tom, 5);
    assert_eq!(
        invite(ann, MemberRole::Student).await.unwrap(),
        Invited::Sent
    );
    assert_eq!(
        invite(ann, MemberRole::Student).await.unwrap(),
        Invited::Pending
    );
    assert_eq!(
        invite(tess, MemberRole::Teacher).await.unwrap(),
        Invited::Sent
    );
    assert_eq!(
        store.member_role(course.id, ann).await.unwrap(),
        None,
        "not before she says yes"
    );
    let waiting = store.invitations_of(ann).await.unwrap();
    assert_eq!(waiting.len(), 1);
    let (id, seen) = (waiting[0].id, &waiting[0]);
    assert_eq!(
        (
            seen.course_title.as_str(),
            seen.role,
            seen.invited_by.as_deref(),
            seen.invited_at
        ),
        ("Games", MemberRole::Student, Some("tom"), 5)
    );
    // Only its person answers it.
    assert_eq!(store.accept_invitation(id, bob, 6).await.unwrap(), None);
    assert!(!store.decline_invitation(id, bob, 6).await.unwrap());
    assert_eq!(
        store.accept_invitation(id, ann, 6).await.unwrap(),
        Some((course.id, MemberRole::Student))
    );
    assert_eq!(
        store.accept_invitation(id, ann, 7).await.unwrap(),
        None,
        "spent"
    );
    assert_eq!(
        store.membership(course.id, ann).await.unwrap(),
        Some((MemberRole::Student, MemberOrigin::Invitation))
    );
    assert!(store.invitations_of(ann).await.unwrap().is_empty());
    assert_eq!(
        invite(ann, MemberRole::Student).await.unwrap(),
        Invited::Member
    );

    assert_eq!(
        invite(bob, MemberRole::Student).await.unwrap(),
        Invited::Sent
    );
    let bobs = store.invitations_of(bob).await.unwrap()[0].id;
    assert!(store.decline_invitation(bobs, bob, 8).await.unwrap());
    assert!(!store.decline_invitation(bobs, bob, 9).await.unwrap());
    assert_eq!(store.accept_invitation(bobs, bob, 9).await.unwrap(), None);
    assert_eq!(
        invite(bob, MemberRole::Student).await.unwrap(),
        Invited::Declined
    );
    assert!(
        !store.withdraw_invitation(course.id, bob).await.unwrap(),
        "an answer stays"
    );
    assert!(store.invitations_of(bob).await.unwrap().is_empty());

    assert_eq!(
        invite(cat, MemberRole::Student).await.unwrap(),
        Invited::Sent
    );
    assert!(store.withdraw_invitation(course.id, cat).await.unwrap());
    assert!(store.invitations_of(cat).await.unwrap().is_empty());

    assert_eq!(
        invite(dan, MemberRole::Student).await.unwrap(),
        Invited::Sent
    );
    store
        .add_member(
            course.id,
            dan,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            10,
        )
        .await
        .unwrap();
    assert!(store.invitations_of(dan).await.unwrap().is_empty());

    let listed: Vec<(String, MemberRole, bool)> = store
        .course_invitations(course.id)
        .await
        .unwrap()
        .into_iter()
        .map(|i| (i.name, i.role, i.declined_at.is_some()))
        .collect();
    assert_eq!(
        listed,
        [
            ("bob".to_owned(), MemberRole::Student, true),
            ("tess".to_owned(), MemberRole::Teacher, false)
        ]
    );
    // Only memberships that no member's act made are for an admin's review.
    assert!(
        store
            .memberships_made_by_courses()
            .await
            .unwrap()
            .is_empty()
    );
    store
        .add_member(
            course.id,
            cat,
            MemberRole::Student,
            MemberOrigin::Course,
            11,
        )
        .await
        .unwrap();
    let review = store.memberships_made_by_courses().await.unwrap();
    assert_eq!(
        review
            .iter()
            .map(|m| (m.name.as_str(), m.course_title.as_str()))
            .collect::<Vec<_>>(),
        [("cat", "Games")]
    );
}

async fn practice_feedback_follows_open_assignments(store: &Store) {
    let tom = teacher(store, "tom").await;
    let ann = student(store, "ann").await;
    let bob = student(store, "bob").await;
    let course = store.create_course("A", "CODE2345", tom, 1).await.unwrap();
    store
        .add_member(
            course.id,
            ann,
            MemberRole::Student,
            MemberOrigin::JoinCode,
            1,
        )
        .await
        .unwrap();
    let mut quiz = homework(&["nim", "stones"]);
    (quiz.opens_at, quiz.due_at, quiz.closes_at) = (100, 200, 300);
    quiz.feedback = Feedback::Verdict;
    let quiz = store.create_assignment(course.id, &quiz, 1).await.unwrap();
    let mut lab = homework(&["nim"]);
    (lab.opens_at, lab.due_at, lab.closes_at) = (0, 1000, 1000);
    lab.feedback = Feedback::Tests;
    store.create_assignment(course.id, &lab, 1).await.unwrap();
    let level = |user: i64, problem: &'static str, at: i64| {
        let store = store.clone();
        async move {
            store
                .strictest_open_feedback(user, problem, at)
                .await
                .unwrap()
        }
    };
    assert_eq!(
        level(ann, "nim", 50).await,
        Some(Feedback::Tests),
        "the quiz is not open yet"
    );
    assert_eq!(level(ann, "nim", 100).await, Some(Feedback::Verdict));
    assert_eq!(
        level(ann, "nim", 300).await,
        Some(Feedback::Verdict),
        "open to its hard deadline"
    );
    assert_eq!(level(ann, "nim", 301).await, Some(Feedback::Tests));
    assert_eq!(level(ann, "wythoff", 150).await, None);
    assert_eq!(level(bob, "nim", 150).await, None, "not his course");
    assert_eq!(level(tom, "nim", 150).await, None, "he teaches it");
    // An extension moves the hard deadline for its student.
    store.set_extension(quiz.id, ann, Some(250)).await.unwrap();
    assert_eq!(level(ann, "stones", 350).await, Some(Feedback::Verdict));
    assert_eq!(level(ann, "stones", 351).await, None);
}
