//! The gradebook of a large class: 300 students, 10 problems, 30 000 submissions (ten a cell on
//! average, late ones among them), against a baseline measured in the same run: one pass summing
//! the submissions' scores, the least any gradebook must read.
//! Target: the gradebook, and its CSV, well under 50 ms, so the teacher's page stays quick.

use std::collections::BTreeMap;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use grundy_coursework::gradebook;
use grundy_store::{
    Assignment, AssignmentSpec, Extension, Member, MemberRole, Submission, SubmissionKind,
    SubmissionStatus,
};

const STUDENTS: i64 = 300;
const PROBLEMS: usize = 10;
const SUBMISSIONS: i64 = 30_000;
const DAY: i64 = 86_400_000;

/// A small deterministic generator, so the bench needs no dependency beyond criterion.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % bound
    }
}

struct Class {
    assignment: Assignment,
    students: Vec<Member>,
    extensions: Vec<Extension>,
    submissions: Vec<Submission>,
    maxima: BTreeMap<String, i64>,
}

fn class() -> Class {
    let problems: Vec<String> = (0..PROBLEMS).map(|p| format!("problem-{p}")).collect();
    let assignment = Assignment {
        id: 1,
        course_id: 1,
        spec: AssignmentSpec {
            title: "Week 1".into(),
            opens_at: 0,
            due_at: 7 * DAY,
            closes_at: 10 * DAY,
            penalty_percent: 10,
            penalty_step_ms: DAY,
            scoring: grundy_store::Scoring::Best,
            feedback: grundy_store::Feedback::Tests,
            personal_tests: false,
            run_every_test: false,
            problems: problems.clone(),
        },
        created_at: 0,
    };
    let students = (1..=STUDENTS)
        .map(|id| Member {
            user_id: id,
            name: format!("student-{id:03}"),
            role: MemberRole::Student,
            joined_at: 0,
            origin: grundy_store::MemberOrigin::JoinCode,
        })
        .collect();
    let extensions = (1..=STUDENTS)
        .step_by(10)
        .map(|id| Extension {
            user_id: id,
            due_at: 9 * DAY,
        })
        .collect();
    let mut rng = SplitMix(7);
    let submissions = (1..=SUBMISSIONS)
        .map(|id| Submission {
            id,
            user_id: 1 + rng.below(STUDENTS as u64) as i64,
            problem: problems[rng.below(PROBLEMS as u64) as usize].clone(),
            kind: SubmissionKind::Program,
            language: Some("cpp20".into()),
            status: SubmissionStatus::Done,
            attempts: 1,
            problem_version: Some(1),
            verdict: Some(grundy_verdict::Verdict::WrongAnswer),
            score: Some(rng.below(101) as i64),
            max_score: Some(100),
            compile_message: None,
            created_at: rng.below(10 * DAY as u64) as i64,
            judged_at: None,
            assignment_id: Some(1),
            instance_seed: None,
        })
        .collect();
    let maxima = problems.into_iter().map(|p| (p, 100)).collect();
    Class {
        assignment,
        students,
        extensions,
        submissions,
        maxima,
    }
}

fn large_class(c: &mut Criterion) {
    let Class {
        assignment,
        students,
        extensions,
        submissions,
        maxima,
    } = class();
    let mut group = c.benchmark_group("gradebook, 300 students × 10 problems, 30 000 submissions");
    group.bench_function("baseline: one pass summing scores", |b| {
        b.iter(|| {
            black_box(&submissions)
                .iter()
                .map(|s| s.score.unwrap_or(0))
                .sum::<i64>()
        })
    });
    group.bench_function("gradebook", |b| {
        b.iter(|| {
            gradebook(
                black_box(&assignment),
                &students,
                &extensions,
                &submissions,
                &maxima,
            )
        })
    });
    group.bench_function("gradebook and its CSV", |b| {
        b.iter(|| {
            gradebook(
                black_box(&assignment),
                &students,
                &extensions,
                &submissions,
                &maxima,
            )
            .to_csv()
            .unwrap()
        })
    });
    group.finish();
}

criterion_group!(benches, large_class);
criterion_main!(benches);
