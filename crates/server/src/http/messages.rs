//! A refusal in the reader's language: the API's `message`, a refused form's error, an error
//! page. The operations word their refusals in English; the words a student or a teacher meets
//! are rendered here for each other language.

use crate::domain::Error;
use crate::locale::Locale;

/// `error` in words for a reader of `locale`.
pub fn message(locale: Locale, error: &Error) -> String {
    match locale {
        Locale::En => error.to_string(),
        Locale::Vi => vietnamese(error),
    }
}

/// A refusal in Vietnamese. The operations word their refusals in English; those a student
/// meets are rendered here, and the rest say what kind of refusal it is.
fn vietnamese(error: &Error) -> String {
    match error {
        Error::TooLarge => "Dữ liệu gửi lên vượt quá giới hạn cho phép.".into(),
        Error::Unauthorized => {
            "Em cần đăng nhập (hoặc gửi `Authorization: Bearer <token>`).".into()
        }
        Error::BadLogin => "Sai tên đăng nhập hoặc mật khẩu.".into(),
        Error::TooManyRequests {
            retry_after_secs,
            limit,
        } => format!(
            "Mỗi phút chỉ được nộp tối đa {limit} bài; hãy thử lại sau {retry_after_secs} giây."
        ),
        Error::Throttled {
            retry_after_secs, ..
        } => format!("Có quá nhiều lần thử; hãy thử lại sau {retry_after_secs} giây."),
        Error::NotFound(_) => "Không tìm thấy nội dung này.".into(),
        Error::Internal(_) => "Hệ thống gặp lỗi; hãy thử lại sau.".into(),
        Error::BadRequest(text) | Error::Invalid(text) | Error::Conflict(text) => known(text)
            .map_or_else(
                || match error {
                    Error::Conflict(_) => "Thao tác này xung đột với dữ liệu hiện có.".into(),
                    _ => "Yêu cầu không hợp lệ.".into(),
                },
                str::to_owned,
            ),
        Error::Forbidden(text) => known(text)
            .unwrap_or("Em không có quyền làm việc này.")
            .to_owned(),
    }
}

/// The refusals a student or teacher meets on the pages, by their English words.
fn known(english: &str) -> Option<&'static str> {
    Some(match english {
        "the source is empty" => "Mã nguồn đang trống.",
        "no answers given" => "Em chưa nhập đáp án nào.",
        "choose a language" => "Hãy chọn ngôn ngữ lập trình.",
        "the uploaded file is not UTF-8 text" => "Tệp tải lên không phải văn bản UTF-8.",
        "choose a .zip file" => "Hãy chọn một tệp .zip.",
        "the current password is wrong" => "Mật khẩu hiện tại không đúng.",
        "registration is closed" => "Hiện không mở đăng ký.",
        "the invitation code is not right" => "Mã mời không đúng.",
        "a user name has 1 to 64 letters, digits, '.', '-' or '_'" => {
            "Tên đăng nhập dài từ 1 đến 64 ký tự, chỉ gồm chữ cái không dấu, chữ số, '.', '-' hoặc '_'."
        }
        "a user with this name already exists" => "Tên đăng nhập này đã có người dùng.",
        "these pages are for teachers and admins" | "teachers and admins only" => {
            "Các trang này dành cho giáo viên và người quản trị."
        }
        "the course's teachers only" => "Chỉ giáo viên của lớp mới làm được việc này.",
        "admins only" | "only admins change roles" => "Chỉ người quản trị mới làm được việc này.",
        "a course title has 1 to 200 characters" => "Tên lớp dài từ 1 đến 200 ký tự.",
        "a course keeps at least one teacher" => "Lớp phải còn ít nhất một giáo viên.",
        "this draw is pinned; unpin it to regenerate" => {
            "Bộ dữ liệu này đã được cố định; hãy bỏ cố định trước khi sinh lại."
        }
        "your instances were drawn again since you fetched them; fetch them again" => {
            "Bộ dữ liệu của em vừa được sinh lại; hãy mở lại trang để lấy bộ mới."
        }
        "the game is over" => "Ván chơi đã kết thúc.",
        "it is the referee's turn" => "Đang đến lượt máy đi.",
        "the game in the address cannot be read" => "Không đọc được ván chơi trong địa chỉ.",
        "nothing to change" => "Không có gì để thay đổi.",
        // Teachers and time zones (issue 18, items 2 and 6).
        crate::zone::UNKNOWN_ZONE => {
            "Không có múi giờ này; hãy chọn một múi giờ trong danh sách (ví dụ Asia/Ho_Chi_Minh)."
        }
        "give every time as a date and a time of day" => {
            "Hãy nhập đủ ngày và giờ cho mọi mốc thời gian."
        }
        "give the penalty and its step as whole numbers" => {
            "Mức trừ điểm và chu kỳ trừ điểm phải là số nguyên."
        }
        "students have submitted to this assignment: it can be edited but not deleted" => {
            "Đã có học sinh nộp bài cho bài tập này: chỉ sửa được, không xóa được."
        }
        _ => return None,
    })
}
