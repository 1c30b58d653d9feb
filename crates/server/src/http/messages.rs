//! A refusal in the reader's language: the API's `message`, a refused form's error, an error
//! page. The operations word their refusals in English; each language's table (`web/ui`) names
//! the functions that word them for its readers, and those of English and Vietnamese are here.

use axum::http::StatusCode;

use crate::domain::Error;
use crate::locale::Locale;
use crate::web::ui::Ui;

/// `error` in words for a reader of `locale`.
pub fn message(locale: Locale, error: &Error) -> String {
    (Ui::of(locale).refusal)(error)
}

/// An error the router or a layer made, known only by its status and perhaps a line of text
/// (axum's, in English, naming what it could not read).
pub fn of_status(locale: Locale, status: StatusCode, text: &str) -> String {
    (Ui::of(locale).status_refusal)(status, text)
}

/// A refusal as the operations word it.
pub(crate) fn english(error: &Error) -> String {
    error.to_string()
}

pub(crate) fn english_status(status: StatusCode, text: &str) -> String {
    if status.is_server_error() || text.is_empty() {
        status.canonical_reason().unwrap_or("error").to_lowercase()
    } else {
        text.to_owned()
    }
}

/// The text is axum's wording of a parse failure; the status says enough to act on.
pub(crate) fn vietnamese_status(status: StatusCode, _text: &str) -> String {
    match status {
        StatusCode::NOT_FOUND => "Không tìm thấy địa chỉ này.",
        StatusCode::FORBIDDEN => {
            "Yêu cầu gửi từ trang web khác bị từ chối (chống giả mạo yêu cầu)."
        }
        StatusCode::METHOD_NOT_ALLOWED => "Địa chỉ này không nhận kiểu yêu cầu này.",
        StatusCode::REQUEST_TIMEOUT => "Yêu cầu mất quá nhiều thời gian; hãy thử lại.",
        StatusCode::PAYLOAD_TOO_LARGE => "Dữ liệu gửi lên vượt quá giới hạn cho phép.",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "Kiểu dữ liệu gửi lên không được hỗ trợ.",
        StatusCode::UNPROCESSABLE_ENTITY => "Dữ liệu gửi lên không đúng dạng.",
        s if s.is_server_error() => "Hệ thống gặp lỗi; hãy thử lại sau.",
        _ => "Yêu cầu không đọc được: địa chỉ hoặc dữ liệu gửi lên không hợp lệ.",
    }
    .into()
}

/// A message of the judge about a test (a checker's, a referee's) for a reader of `locale`. The
/// judge words them in English; those whose wording is known come in the reader's language, the
/// rest (a teacher's own checker, say) as they were written.
pub fn judge_message(locale: Locale, message: &str) -> String {
    (Ui::of(locale).judge_words)(message).unwrap_or_else(|| message.to_owned())
}

/// What accepting an invitation to take `role` in a course shares, for a reader of `locale`.
pub fn invitation_shares(locale: Locale, role: grundy_store::MemberRole) -> &'static str {
    (Ui::of(locale).invitation_shares)(role)
}

/// A refusal in Vietnamese. The operations word their refusals in English; each is rendered
/// here with its detail (the name, the number, the time). A refusal worded elsewhere (a
/// package's or a game's own message) says what kind of refusal it is and keeps its own words
/// after it: a teacher fixing a package needs to know which field is wrong.
pub(crate) fn vietnamese(error: &Error) -> String {
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
            what: crate::throttle::TOO_MANY_REGISTRATIONS,
            retry_after_secs,
        } => format!(
            "Đã có quá nhiều tài khoản được đăng ký từ địa chỉ này; hãy thử lại sau {retry_after_secs} giây."
        ),
        Error::Throttled {
            retry_after_secs, ..
        } => format!("Có quá nhiều lần thử; hãy thử lại sau {retry_after_secs} giây."),
        Error::NotFound(what) => match missing(what) {
            Some(thing) => format!("Không tìm thấy {thing}."),
            None => "Không tìm thấy nội dung này.".into(),
        },
        Error::Internal(_) => "Hệ thống gặp lỗi; hãy thử lại sau.".into(),
        Error::BadRequest(text) | Error::Invalid(text) | Error::Conflict(text) => refusal(text)
            .unwrap_or_else(|| match error {
                Error::Conflict(_) => format!("Thao tác này xung đột với dữ liệu hiện có: {text}"),
                _ => format!("Yêu cầu không hợp lệ: {text}"),
            }),
        Error::Forbidden(text) => {
            refusal(text).unwrap_or_else(|| format!("Em không có quyền làm việc này: {text}"))
        }
    }
}

/// The holes of `template` (`{}`, each standing for any text) as they are filled in `text`, or
/// `None` when `text` is not worded so.
fn holes<'t>(template: &str, text: &'t str) -> Option<Vec<&'t str>> {
    let mut pieces = template.split("{}");
    let mut rest = text.strip_prefix(pieces.next()?)?;
    let mut filled = Vec::new();
    let pieces: Vec<&str> = pieces.collect();
    for (i, piece) in pieces.iter().enumerate() {
        let end = if i + 1 == pieces.len() {
            // The last hole runs to the end, where the last piece must be.
            rest.len().checked_sub(piece.len())?
        } else {
            rest.find(piece)?
        };
        if !rest[end..].starts_with(piece) {
            return None;
        }
        filled.push(&rest[..end]);
        rest = &rest[end + piece.len()..];
    }
    rest.is_empty().then_some(filled)
}

/// What `NotFound` did not find (`problem "nim"`, `submission 7`), in Vietnamese.
fn missing(what: &str) -> Option<String> {
    const THINGS: &[(&str, &str)] = &[
        ("this route", "đường dẫn này"),
        ("a course with this join code", "lớp nào có mã tham gia này"),
        ("problem {} in assignment {}", "bài {} trong bài tập {}"),
        (
            "a game to play in problem {}",
            "trò chơi để chơi thử trong bài {}",
        ),
        ("a {} statement of {}", "đề bài bằng ngôn ngữ {} của bài {}"),
        ("student {} in this course", "học sinh {} trong lớp này"),
        ("problem {}", "bài {}"),
        ("submission {}", "bài nộp {}"),
        ("assignment {}", "bài tập {}"),
        ("course {}", "lớp {}"),
        ("user {}", "người dùng {}"),
        ("member {}", "thành viên {}"),
        ("invitation of user {}", "lời mời của người dùng {}"),
        ("invitation {}", "lời mời {}"),
        ("token {}", "mã truy cập (token) {}"),
    ];
    fill(THINGS, what)
}

/// `text` worded by the first of `table`'s English templates that fits, in the Vietnamese one
/// beside it (holes in the same order).
fn fill(table: &[(&str, &str)], text: &str) -> Option<String> {
    table.iter().find_map(|(english, vietnamese)| {
        let filled = holes(english, text)?;
        let mut words = vietnamese.split("{}");
        let mut out = words.next().unwrap_or_default().to_owned();
        for (value, piece) in filled.iter().zip(words) {
            out.push_str(value);
            out.push_str(piece);
        }
        Some(out)
    })
}

/// The refusals of the operations and the pages, by their English words.
fn refusal(english: &str) -> Option<String> {
    known(english)
        .map(str::to_owned)
        .or_else(|| {
            let what = english.strip_suffix(" already exists")?;
            Some(format!("Đã có {}.", existing(what)?))
        })
        .or_else(|| fill(WORDED, english))
}

/// What the store found already there (`… already exists`).
fn existing(what: &str) -> Option<&'static str> {
    Some(match what {
        "a course with this join code" => "một lớp có mã tham gia này",
        "a user with this name" => "một người dùng có tên này",
        grundy_store::LOOKALIKE => "một người dùng có tên trông giống hệt tên này",
        "this token" => "mã truy cập (token) này",
        "this problem version with different content" => {
            "một phiên bản bài cùng số hiệu nhưng khác nội dung"
        }
        "a problem with this slug owned by someone else" => "một bài cùng mã do người khác tạo",
        _ => return None,
    })
}

/// Refusals that carry a detail: the English template and the Vietnamese one, `{}` for each
/// detail. More specific templates come first.
const WORDED: &[(&str, &str)] = &[
    // A filter's number typed into the address by hand; the hole is the filter's name.
    ("{}: not a number", "Giá trị lọc «{}» phải là một số."),
    (
        "the source is larger than {} bytes",
        "Mã nguồn dài quá {} byte.",
    ),
    (
        "{} is an uploaded package: its tests are hidden, so it takes programs only",
        "Bài {} là gói bài tải lên, có test được giữ kín, nên chỉ nhận chương trình.",
    ),
    (
        "{} is an uploaded package: it takes programs only",
        "Bài {} là gói bài tải lên nên chỉ nhận chương trình.",
    ),
    (
        "the problem is at version {} now; fetch its instances again",
        "Bài vừa được cập nhật lên phiên bản {}; hãy mở lại trang để lấy bộ dữ liệu mới.",
    ),
    (
        "at most {} answers per submission",
        "Mỗi lần nộp có tối đa {} đáp án.",
    ),
    (
        "{} is not part of assignment {}",
        "Bài {} không thuộc bài tập {}.",
    ),
    ("the assignment opens at {}", "Bài tập mở lúc {}."),
    ("the assignment closed at {}", "Bài tập đã đóng lúc {}."),
    ("unknown verdict {}", "Không có kết quả chấm {}."),
    (
        "unknown scoring {} (best or last)",
        "Không có cách tính điểm {} (chọn best hoặc last).",
    ),
    (
        "unknown feedback {} (verdict, tests or inputs)",
        "Không có mức phản hồi {} (chọn verdict, tests hoặc inputs).",
    ),
    (
        "unknown role {} (admin, teacher or student)",
        "Không có vai trò {} (chọn admin, teacher hoặc student).",
    ),
    (
        "unknown role {} (student or teacher)",
        "Không có vai trò {} (chọn student hoặc teacher).",
    ),
    (
        "unknown language {}; accepted, in any case: {}",
        "Không có ngôn ngữ lập trình {}; các tên được nhận (viết hoa hay thường đều được): {}.",
    ),
    (
        "language {} is not available here: {}; accepted, in any case: {}",
        "Ngôn ngữ {} chưa dùng được trên máy chấm này ({}); các tên được nhận: {}.",
    ),
    (
        "a game of more than {} moves",
        "Ván chơi dài quá {} nước đi.",
    ),
    (
        "{} is not a side (first or second)",
        "{} không phải bên đi trước hay bên đi sau của ván chơi.",
    ),
    ("move {}: {}", "Nước đi thứ {}: {}"),
    (
        "not a position: {}",
        "Không phải một thế hợp lệ của trò chơi: {}",
    ),
    (
        "at most {} names at once",
        "Mỗi lần chỉ thêm được tối đa {} tên.",
    ),
    (
        "a label has at most {} characters",
        "Nhãn dài tối đa {} ký tự.",
    ),
    (
        "a token lasts 1 to {} days",
        "Mã truy cập (token) có hạn từ 1 đến {} ngày.",
    ),
    (
        "a password needs at least {} characters",
        "Mật khẩu cần ít nhất {} ký tự.",
    ),
    (
        "a password may have at most {} characters",
        "Mật khẩu dài tối đa {} ký tự.",
    ),
    (
        "the slug {} is not allowed: 2 to 48 lower-case letters, digits and '-'",
        "Mã bài {} không hợp lệ: cần từ 2 đến 48 ký tự, gồm chữ thường không dấu, chữ số và '-'.",
    ),
    (
        "{} is a built-in problem; choose another slug",
        "{} là bài có sẵn; hãy chọn mã bài khác.",
    ),
    (
        "{} is a built-in problem: it is published already",
        "{} là bài có sẵn nên đã được công bố rồi.",
    ),
    ("no assignment {}", "Không có bài tập {}."),
    ("no language {}", "Không có ngôn ngữ {}."),
    ("seed must be at most {}", "seed không được lớn hơn {}."),
    (
        "the body does not fit: {}",
        "Nội dung JSON gửi lên không đúng dạng: {}",
    ),
    ("the form: {}", "Không đọc được biểu mẫu gửi lên: {}"),
    (
        "{}: give a date and time (UTC)",
        "{}: hãy nhập ngày và giờ (UTC).",
    ),
    ("{}: give a whole number", "{}: hãy nhập một số nguyên."),
    // Bounds on what a problem generates (issue "Trust inside a class", item 4).
    (
        "over your quota: your other problems take {} MiB of your {} MiB, and this one needs {} MiB (as stored, plus its files unpacked or its tests generated); upload a smaller version of one of yours, or ask the service's operator for a larger quota",
        "Vượt hạn mức dung lượng: các bài khác của bạn đã dùng {} MiB trong tổng số {} MiB, còn bài này cần {} MiB (phần lưu trữ cộng với các tệp sau khi giải nén hoặc các test được sinh ra). Hãy tải lên phiên bản nhỏ hơn của một bài, hoặc đề nghị người vận hành hệ thống tăng hạn mức.",
    ),
    (
        "over your quota: your other problems take {} MiB of your {} MiB, and the tests this one generates come to more than the {} MiB left; give it fewer tests or smaller ones, or ask the service's operator for a larger quota",
        "Vượt hạn mức dung lượng: các bài khác của bạn đã dùng {} MiB trong tổng số {} MiB, còn các test mà bài này sinh ra vượt quá {} MiB còn lại. Hãy giảm số test hoặc kích thước test, hoặc đề nghị người vận hành hệ thống tăng hạn mức.",
    ),
    (
        "the tests of {} come to more than {} MiB, the most a problem's tests may take; give it fewer tests or smaller ones",
        "Các test của bài {} vượt quá {} MiB, dung lượng tối đa dành cho test của một bài; hãy giảm số test hoặc kích thước test.",
    ),
    (
        "the instances of {} come to more than {} MiB, more than one page holds; it takes programs only",
        "Bộ dữ liệu của bài {} vượt quá {} MiB, quá lớn để hiện trên một trang; bài này chỉ nhận chương trình.",
    ),
    (
        "problem {}: {} subtasks; a problem may have at most {}",
        "Bài {}: có {} nhóm test (subtask), nhưng mỗi bài chỉ được có tối đa {} nhóm.",
    ),
    (
        "problem {}: {} tests in all; a problem may have at most {}",
        "Bài {}: có tổng cộng {} test, nhưng mỗi bài chỉ được có tối đa {} test.",
    ),
    (
        "{}: {} test groups; a problem may have at most {} subtasks",
        "{}: có {} nhóm test, nhưng mỗi bài chỉ được có tối đa {} nhóm test (subtask).",
    ),
    (
        "{}: {} tests in all; a problem may have at most {}",
        "{}: có tổng cộng {} test, nhưng mỗi bài chỉ được có tối đa {} test.",
    ),
    (
        "computing the values up to {} took more than {} s (they reached {}); ask for a smaller range (`upto`) or a shorter code",
        "Tính giá trị Grundy đến {} mất hơn {} giây (mới tính được đến {}); hãy chọn phạm vi nhỏ hơn (`upto`) hoặc một mã ngắn hơn.",
    ),
    (
        "problem {} cannot be exported as a package: its files come to more than {} MiB, the most a package may unpack to",
        "Không xuất được bài {} thành gói: các tệp vượt quá {} MiB, dung lượng tối đa của một gói sau khi giải nén.",
    ),
];

/// The refusals without a detail, by their English words.
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
            "Tên đăng nhập dài từ 1 đến 64 ký tự, chỉ gồm chữ cái, chữ số, '.', '-' hoặc '_'."
        }
        "a user with this name already exists" => "Tên đăng nhập này đã có người dùng.",
        "a user with a name that looks the same already exists" => {
            "Tên đăng nhập này trông giống hệt tên của một người dùng khác; hãy chọn tên khác."
        }
        "these pages are for teachers and admins" | "teachers and admins only" => {
            "Các trang này dành cho giáo viên và người quản trị."
        }
        "the course's teachers only" => "Chỉ giáo viên của lớp mới làm được việc này.",
        "admins only" | "only admins change roles" => "Chỉ người quản trị mới làm được việc này.",
        "a course title has 1 to 200 characters" => "Tên lớp dài từ 1 đến 200 ký tự.",
        "a course keeps at least one teacher" => "Lớp phải còn ít nhất một giáo viên.",
        "a student's account cannot teach" => "Tài khoản học sinh không thể làm giáo viên.",
        "not a student's account (add it as a co-teacher)" => {
            "Đây không phải tài khoản học sinh (hãy mời với vai trò giáo viên cùng dạy)."
        }
        "this draw is pinned; unpin it to regenerate" => {
            "Bộ dữ liệu này đã được cố định; hãy bỏ cố định trước khi sinh lại."
        }
        "your instances were drawn again since you fetched them; fetch them again" => {
            "Bộ dữ liệu của em vừa được sinh lại; hãy mở lại trang để lấy bộ mới."
        }
        "answers for an assignment name the `draw` of the instances they answer" => {
            "Đáp án nộp cho bài tập phải ghi rõ bộ dữ liệu (`draw`) mà chúng trả lời."
        }
        "an extension lies between the class's due time and the end of 9999" => {
            "Hạn gia hạn phải sau hạn nộp của lớp và trước cuối năm 9999."
        }
        "the game is over" => "Ván chơi đã kết thúc.",
        "it is the referee's turn" => "Đang đến lượt máy đi.",
        "the game in the address cannot be read" => "Không đọc được ván chơi trong địa chỉ.",
        "nothing to change" => "Không có gì để thay đổi.",
        "you may not create accounts" => "Bạn không có quyền tạo tài khoản.",
        "you may not create a student" => "Bạn không có quyền tạo tài khoản học sinh.",
        "you may not create a teacher" => "Bạn không có quyền tạo tài khoản giáo viên.",
        "you may not create an admin" => "Bạn không có quyền tạo tài khoản quản trị.",
        "you may not change this user" => "Bạn không có quyền thay đổi tài khoản này.",
        "only the problem's owner or an admin publishes it" => {
            "Chỉ người tạo bài hoặc người quản trị mới công bố được bài này."
        }
        "only the problem's owner or an admin downloads its package" => {
            "Chỉ người tạo bài hoặc người quản trị mới tải được gói bài này."
        }
        "only the problem's owner or an admin rejudges all of it" => {
            "Chỉ người tạo bài hoặc người quản trị mới chấm lại được toàn bộ bài này."
        }
        "the body must be a JSON object" => "Nội dung gửi lên phải là một đối tượng JSON.",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_keep_their_detail_in_vietnamese() {
        let vi = |e: Error| message(Locale::Vi, &e);
        assert_eq!(
            vi(Error::NotFound("problem \"nim\"".into())),
            "Không tìm thấy bài \"nim\"."
        );
        assert_eq!(
            vi(Error::NotFound("problem \"nim\" in assignment 4".into())),
            "Không tìm thấy bài \"nim\" trong bài tập 4."
        );
        assert_eq!(
            vi(Error::BadRequest(
                "the source is larger than 65536 bytes".into()
            )),
            "Mã nguồn dài quá 65536 byte."
        );
        assert_eq!(
            vi(Error::Conflict(
                "a user with this name already exists".into()
            )),
            "Tên đăng nhập này đã có người dùng."
        );
        assert_eq!(
            vi(Error::Conflict("this token already exists".into())),
            "Đã có mã truy cập (token) này."
        );
        assert_eq!(
            vi(Error::Invalid("move 3: no such pile".into())),
            "Nước đi thứ 3: no such pile"
        );
        for what in [
            "a course with this join code",
            "a user with this name",
            grundy_store::LOOKALIKE,
            "this token",
            "this problem version with different content",
            "a problem with this slug owned by someone else",
        ] {
            let said = vi(Error::Conflict(format!("{what} already exists")));
            assert!(
                !said.contains(what) && !said.starts_with("Thao tác này xung đột"),
                "{what}: {said}"
            );
        }
        // A package's own message: the kind of refusal, then its words.
        assert_eq!(
            vi(Error::BadRequest(
                "problem.toml: subtasks[0].points must be positive".into()
            )),
            "Yêu cầu không hợp lệ: problem.toml: subtasks[0].points must be positive"
        );
    }

    #[test]
    fn holes_are_filled_in_order_and_must_fit_the_whole_text() {
        assert_eq!(holes("a {} b {}", "a 1 b 2"), Some(vec!["1", "2"]));
        assert_eq!(holes("{} is x", "y is x"), Some(vec!["y"]));
        assert_eq!(holes("a {} b", "a 1 c"), None);
        assert_eq!(holes("exact", "exact"), Some(vec![]));
        assert_eq!(holes("exact", "exactly"), None);
    }

    /// Every refusal the server words itself (a literal, or a `format!` of one, given to
    /// `Error::…(`) has its Vietnamese text: read from the sources, so a new one without a
    /// translation fails here.
    #[test]
    fn every_refusal_worded_in_the_server_has_vietnamese() {
        let mut found = 0;
        let mut untranslated = Vec::new();
        for file in sources(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src")) {
            let text = std::fs::read_to_string(&file).unwrap();
            for variant in ["BadRequest", "Invalid", "Conflict", "Forbidden", "NotFound"] {
                for (at, _) in text.match_indices(&format!("Error::{variant}(")) {
                    // `RegistryError::Invalid(` and the like are other errors.
                    if text[..at].ends_with(char::is_alphanumeric) {
                        continue;
                    }
                    let rest = text[at..].split_once('(').unwrap().1.trim_start();
                    let rest = rest.strip_prefix("format!(").unwrap_or(rest).trim_start();
                    let Some(literal) = rest.strip_prefix('"') else {
                        continue;
                    };
                    let Some((english, _)) = literal.split_once('"') else {
                        continue;
                    };
                    // `{slug:?}` and the like stand for any detail.
                    let sample = english
                        .split('{')
                        .enumerate()
                        .map(|(i, piece)| {
                            if i == 0 {
                                piece.to_owned()
                            } else {
                                format!("x{}", piece.split_once('}').map_or("", |(_, after)| after))
                            }
                        })
                        .collect::<String>()
                        .replace("\\\"", "\"");
                    // The store names what already exists; each of its phrases is checked
                    // in `refusals_keep_their_detail_in_vietnamese`.
                    if english == "{what} already exists" {
                        continue;
                    }
                    found += 1;
                    let worded = if variant == "NotFound" {
                        missing(&sample).is_some()
                    } else {
                        refusal(&sample).is_some()
                    };
                    if !worded {
                        untranslated.push(format!("{}: {english}", file.display()));
                    }
                }
            }
        }
        assert!(found > 50, "{found}");
        assert!(
            untranslated.is_empty(),
            "no Vietnamese for {untranslated:#?}"
        );
    }

    fn sources(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(sources(&path));
            } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("messages.rs")
            {
                files.push(path);
            }
        }
        files
    }
}
