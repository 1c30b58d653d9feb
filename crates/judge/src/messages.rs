//! The judge's own messages in Vietnamese: an exit code, a signal, the submission's budget spent.
//! They are stored in English, as the judge words them; a page for a reader of Vietnamese renders
//! them through here, and what is not the judge's (the checker's shapes) goes on to
//! [`grundy_problems::check::vietnamese`].

/// `message`, as the judge or the checker wrote it, in Vietnamese; `None` when it is neither's.
pub fn vietnamese(message: &str) -> Option<String> {
    if let Some(code) = message.strip_prefix("exit code ") {
        let code: i64 = code.parse().ok()?;
        return Some(format!("chương trình kết thúc với mã lỗi {code}"));
    }
    if let Some(signal) = message.strip_prefix("killed by ") {
        return Some(match signal_in_vietnamese(signal) {
            Some(what) => format!("chương trình bị dừng bởi tín hiệu {signal} ({what})"),
            None => format!("chương trình bị dừng bởi tín hiệu {signal}"),
        });
    }
    if let Some(rest) = message
        .strip_prefix("judging stopped: this submission used up its budget (")
        .and_then(|rest| rest.strip_suffix(" s in all)"))
    {
        let (cpu, wall) = rest.split_once(" s of CPU time, ")?;
        let (cpu, wall): (u64, u64) = (cpu.parse().ok()?, wall.parse().ok()?);
        return Some(format!(
            "dừng chấm: bài nộp đã dùng hết thời gian chấm cho phép ({cpu} giây CPU, {wall} giây tổng cộng)"
        ));
    }
    grundy_problems::check::vietnamese(message)
}

/// What the signals a program commonly dies of mean, for a student.
fn signal_in_vietnamese(signal: &str) -> Option<&'static str> {
    Some(match signal {
        "SIGSEGV" => "truy cập bộ nhớ không hợp lệ, thường do vượt chỉ số mảng hoặc đệ quy quá sâu",
        "SIGABRT" => "chương trình tự dừng, thường do assert sai hoặc ngoại lệ không được bắt",
        "SIGFPE" => "lỗi số học, thường do chia cho 0",
        "SIGKILL" => "bị hệ thống dừng, thường do vượt giới hạn",
        "SIGBUS" => "truy cập bộ nhớ sai địa chỉ",
        "SIGILL" => "lệnh máy không hợp lệ",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SubmissionBudget;

    #[test]
    fn the_judges_own_shapes_are_worded() {
        assert_eq!(
            vietnamese("exit code 3").as_deref(),
            Some("chương trình kết thúc với mã lỗi 3")
        );
        assert!(vietnamese("killed by SIGSEGV").unwrap().contains("bộ nhớ"));
        let spent = SubmissionBudget {
            cpu_ms: 95_500,
            wall_ms: 300_000,
        }
        .spent_message();
        assert_eq!(
            vietnamese(&spent).as_deref(),
            Some(
                "dừng chấm: bài nộp đã dùng hết thời gian chấm cho phép (96 giây CPU, 300 giây tổng cộng)"
            )
        );
        assert_eq!(vietnamese("exit code x"), None);
    }
}
