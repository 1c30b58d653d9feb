//! Playing a problem's game against the reference: one stateless call per move.

use axum::Json;
use axum::extract::{Path, State};

use super::JsonResult;
use super::caller::Caller;
use super::error::{ApiError, JsonObject};
use super::views::{ErrorBody, GameState, PlayRequest};
use crate::domain::Error;
use crate::domain::play::{self, Turn};
use crate::state::AppState;

/// The largest seed the document allows, as an int64 (clients in other languages read JSON
/// integers as such).
const MAX_SEED: u64 = i64::MAX as u64;

/// Plays a move against the reference in a problem's game (interactive problems, and the
/// catalogue's games whose positions fit on a page, have one: the problem's `playable`).
/// Nothing is stored: send the start, the side taken and every move so far (both players'), and
/// optionally `move`, the caller's move now. The answer replays the game, checks every move,
/// gives each its value, plays the referee's reply when it is the referee's turn, and with
/// `hint` lists the winning moves of the position reached. Without `start` the game starts from
/// a random position (`seed` fixes it). Signing in is not needed for published problems.
#[utoipa::path(post, path = "/api/v1/problems/{slug}/play", tag = "problems",
    params(("slug" = String, Path)),
    request_body = PlayRequest,
    responses((status = 200, body = GameState), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody)))]
pub(super) async fn play(
    State(state): State<AppState>,
    Caller(user): Caller,
    Path(slug): Path<String>,
    body: Result<JsonObject<PlayRequest>, ApiError>,
) -> JsonResult<GameState> {
    let JsonObject(body) = body?;
    if body.seed.is_some_and(|seed| seed > MAX_SEED) {
        return Err(Error::Invalid(format!("seed must be at most {MAX_SEED}")).into());
    }
    let turn = Turn {
        start: body.start,
        seed: body.seed,
        side: body.side.into(),
        moves: body.moves,
        play: body.play,
        hint: body.hint,
    };
    let game = play::turn(&state.domain, user.as_ref(), &slug, turn).await?;
    Ok(Json(game.into()))
}
