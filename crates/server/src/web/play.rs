//! The play page: a person against the reference, move by move, as plain forms (the game
//! travels in the query string, so it works without JavaScript, with the keyboard, and the back
//! button takes a move back).

use askama::Template;
use askama_web::WebTemplate;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, RawQuery, State};
use axum::response::{IntoResponse, Response};
use grundy_problems::play::{BoardMove, Mover, Side, Words};
use serde::Deserialize;

use super::ui::Ui;
use super::{Frame, PageError, Visitor};
use crate::domain::play::{self, Game, MAX_MOVES, Turn};
use crate::domain::{Error, problems};
use crate::locale::{self, Locale};
use crate::state::AppState;

/// Moves in the query string: `;` is never part of a move of any protocol.
const MOVE_SEPARATOR: char = ';';

#[derive(Debug, Deserialize)]
pub(super) struct PlayQuery {
    start: Option<String>,
    side: Option<String>,
    #[serde(default)]
    moves: String,
    #[serde(rename = "move")]
    play: Option<String>,
    hint: Option<String>,
}

#[derive(Template, WebTemplate)]
#[template(path = "play.html")]
pub(super) struct PlayPage {
    frame: Frame,
    slug: String,
    title: String,
    /// A suggested start for the form (random), and the error of the last request.
    suggestion: String,
    /// How positions and moves are typed, with their examples as code.
    positions: Vec<Segment>,
    moves: Vec<Segment>,
    error: Option<String>,
    game: Option<GameLines>,
}

/// A notation in the reader's language: every board writes it in the statements' languages.
fn in_language(words: Words, locale: Locale) -> &'static str {
    match locale {
        Locale::En => words.en,
        Locale::Vi => words.vi,
    }
}

/// A piece of a notation's text: the examples between backquotes are code.
struct Segment {
    code: bool,
    text: String,
}

fn segments(text: &str) -> Vec<Segment> {
    text.split('`')
        .enumerate()
        .filter(|(_, part)| !part.is_empty())
        .map(|(i, part)| Segment {
            code: i % 2 == 1,
            text: part.to_owned(),
        })
        .collect()
}

/// A game as the page shows it.
struct GameLines {
    start: String,
    start_words: String,
    /// The side as the next request sends it back (`first`, `second`), and in words.
    side: &'static str,
    side_words: &'static str,
    /// The moves so far, as the next request sends them back.
    moves: String,
    steps: Vec<StepLine>,
    words: String,
    over: bool,
    your_turn: bool,
    you_won: bool,
    hint: Option<Vec<MoveLine>>,
    first_mistake: Option<usize>,
}

struct StepLine {
    by_you: bool,
    text: String,
    words: String,
    after_words: String,
    /// The value of the position left, for the player to move next.
    leaves_win: bool,
    grundy: Option<u64>,
    mistake: bool,
    better: Vec<MoveLine>,
}

struct MoveLine {
    text: String,
    words: String,
    after_words: String,
    grundy: Option<u64>,
}

impl From<BoardMove> for MoveLine {
    fn from(m: BoardMove) -> MoveLine {
        MoveLine {
            text: m.text,
            words: m.words,
            after_words: m.after_words,
            grundy: m.value.grundy,
        }
    }
}

impl GameLines {
    fn of(game: Game, ui: &Ui) -> GameLines {
        let moves: Vec<String> = game.steps.iter().map(|s| s.made.text.clone()).collect();
        GameLines {
            start: game.start,
            start_words: game.start_words,
            side: side_word(game.side),
            side_words: ui.side(game.side),
            moves: moves.join(&MOVE_SEPARATOR.to_string()),
            steps: game
                .steps
                .into_iter()
                .map(|s| StepLine {
                    by_you: s.by == Mover::Program,
                    text: s.made.text,
                    words: s.made.words,
                    after_words: s.made.after_words,
                    leaves_win: s.made.value.win,
                    grundy: s.made.value.grundy,
                    mistake: s.mistake,
                    better: s.better.into_iter().map(Into::into).collect(),
                })
                .collect(),
            words: game.words,
            over: game.over,
            your_turn: game.your_turn,
            you_won: game.winner == Some(Mover::Program),
            hint: game.hint.map(|h| h.into_iter().map(Into::into).collect()),
            first_mistake: game.first_mistake,
        }
    }

    fn is_first_mistake(&self, index: &usize) -> bool {
        self.first_mistake == Some(*index)
    }
}

fn side_word(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// `/play/{slug}`: the start form, or the game the query carries.
pub(super) async fn play_page(
    State(state): State<AppState>,
    Visitor(user): Visitor,
    Path(slug): Path<String>,
    RawQuery(raw): RawQuery,
    query: Result<Query<PlayQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let entry = problems::visible(&state.domain, user.as_ref(), &slug).await?;
    if !play::playable(&state.domain, &slug) {
        return Err(Error::NotFound(format!("a game to play in problem {slug:?}")).into());
    }
    let frame = Frame::new(user.clone(), "");
    let title = entry.problem.title(frame.ui.code).to_owned();
    let board = entry
        .problem
        .board()
        .expect("playable problems have a board");
    let suggestion = board.random_start(rand::random());
    let notation = board.notation();
    let locale = locale::for_caller(user.as_ref());
    let mut page = PlayPage {
        frame: Frame {
            title: format!("{}: {title}", frame.ui.play),
            ..frame
        },
        slug: slug.clone(),
        title,
        suggestion,
        positions: segments(in_language(notation.position, locale)),
        moves: segments(in_language(notation.moves, locale)),
        error: None,
        game: None,
    };
    let query = match (raw, query) {
        (Some(_), Ok(Query(q))) => q,
        (Some(_), Err(_)) => {
            let unread = Error::BadRequest("the game in the address cannot be read".into());
            page.error = Some(page.frame.ui.error(&unread));
            return Ok(page.into_response());
        }
        (None, _) => return Ok(page.into_response()),
    };
    let side = match query.side.as_deref() {
        Some("first") => Side::First,
        Some("second") => Side::Second,
        None => return Ok(page.into_response()),
        Some(other) => {
            let refused = Error::BadRequest(format!("{other:?} is not a side (first or second)"));
            page.error = Some(page.frame.ui.error(&refused));
            return Ok(page.into_response());
        }
    };
    let moves: Vec<String> = query
        .moves
        .split(MOVE_SEPARATOR)
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned)
        .take(MAX_MOVES + 1)
        .collect();
    let start = query.start.filter(|s| !s.trim().is_empty());
    let turn = Turn {
        start: start.clone(),
        seed: None,
        side,
        moves: moves.clone(),
        play: query.play.filter(|m| !m.trim().is_empty()),
        hint: query.hint.is_some(),
    };
    match play::turn(&state.domain, user.as_ref(), &slug, turn.clone()).await {
        Ok(game) => page.game = Some(GameLines::of(game, page.frame.ui)),
        // A refused move leaves the game where it was, with the reason.
        Err(Error::Invalid(why)) if turn.play.is_some() => {
            page.error = Some(page.frame.ui.error(&Error::Invalid(why)));
            let unchanged = Turn { play: None, ..turn };
            if let Ok(game) = play::turn(&state.domain, user.as_ref(), &slug, unchanged).await {
                page.game = Some(GameLines::of(game, page.frame.ui));
            }
        }
        Err(Error::Invalid(why)) => page.error = Some(page.frame.ui.error(&Error::Invalid(why))),
        Err(other) => return Err(other.into()),
    }
    Ok(page.into_response())
}
