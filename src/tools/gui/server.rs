//! The HTTP side: the page and its two assets, and the WebSocket that drives a session. Every
//! request must name this server by its loopback address (a page of another site that rebinds
//! its own name to 127.0.0.1 is turned away); the page and the WebSocket need the run's token,
//! and the WebSocket an `Origin` that is the page's own, so that no other page the user visits
//! can drive the engine. Messages are bounded in size and rate.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use super::{session, url_host, view};

const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// Largest message the page may send: a game file of up to 2 MB, base64-encoded, and its JSON.
const MAX_MESSAGE_BYTES: usize = 3 << 20;
/// Messages a page may send per second on average ...
const MESSAGES_PER_SECOND: f64 = 20.0;
/// ... and in a burst (a person clicking fast, the page's start-up requests).
const MESSAGE_BURST: f64 = 40.0;
/// What a browser may keep of the page: nothing (each run has its own token).
const NO_STORE: &str = "no-store";

/// What every request is checked against.
#[derive(Clone)]
struct Shared {
    token: Arc<str>,
    /// The names this server answers to (`127.0.0.1:PORT`, `localhost:PORT`).
    hosts: Arc<[String]>,
}

/// The token in a query string.
#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// Serves until Ctrl-C.
pub async fn serve(
    listener: tokio::net::TcpListener,
    address: SocketAddr,
    token: String,
) -> Result<(), String> {
    let port = address.port();
    let mut hosts = vec![url_host(address), format!("localhost:{port}")];
    if address.ip().is_loopback() {
        hosts.push(format!("127.0.0.1:{port}"));
        hosts.push(format!("[::1]:{port}"));
    }
    let shared = Shared {
        token: token.into(),
        hosts: hosts.into(),
    };
    let app = Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style_css))
        .route("/ws", get(socket))
        .with_state(shared);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| format!("the server stopped: {e}"))
}

/// A refusal in plain text.
fn refuse(status: StatusCode, why: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        format!("{why}\n"),
    )
        .into_response()
}

/// Compares without stopping at the first difference, so that timing tells nothing.
fn same_token(given: Option<&str>, token: &str) -> bool {
    let Some(given) = given else {
        return false;
    };
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// The `Host` header, when it names this server.
fn host_of<'a>(headers: &'a HeaderMap, shared: &Shared) -> Option<&'a str> {
    let host = headers.get(header::HOST)?.to_str().ok()?;
    shared
        .hosts
        .iter()
        .any(|h| h.eq_ignore_ascii_case(host))
        .then_some(host)
}

/// Checks the host and the token of a request for the page or the WebSocket.
fn check(headers: &HeaderMap, query: &TokenQuery, shared: &Shared) -> Result<String, Response> {
    let Some(host) = host_of(headers, shared) else {
        return Err(refuse(
            StatusCode::FORBIDDEN,
            "This server answers only to its own address (see what cotuong gui printed).",
        ));
    };
    if !same_token(query.token.as_deref(), &shared.token) {
        return Err(refuse(
            StatusCode::FORBIDDEN,
            "Open the address cotuong gui printed: it carries the token this page needs.",
        ));
    }
    Ok(host.to_string())
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE)),
        ],
        body,
    )
        .into_response()
}

async fn index(
    State(shared): State<Shared>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
) -> Response {
    match check(&headers, &query, &shared) {
        Ok(_) => asset("text/html; charset=utf-8", INDEX_HTML),
        Err(r) => r,
    }
}

async fn app_js(State(shared): State<Shared>, headers: HeaderMap) -> Response {
    match host_of(&headers, &shared) {
        Some(_) => asset("text/javascript; charset=utf-8", APP_JS),
        None => refuse(StatusCode::FORBIDDEN, "Not this server's name."),
    }
}

async fn style_css(State(shared): State<Shared>, headers: HeaderMap) -> Response {
    match host_of(&headers, &shared) {
        Some(_) => asset("text/css; charset=utf-8", STYLE_CSS),
        None => refuse(StatusCode::FORBIDDEN, "Not this server's name."),
    }
}

async fn socket(
    State(shared): State<Shared>,
    Query(query): Query<TokenQuery>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let host = match check(&headers, &query, &shared) {
        Ok(h) => h,
        Err(r) => return r,
    };
    let origin = headers.get(header::ORIGIN).and_then(|o| o.to_str().ok());
    if origin != Some(format!("http://{host}").as_str()) {
        return refuse(
            StatusCode::FORBIDDEN,
            "Only the page cotuong gui serves may use its WebSocket.",
        );
    }
    upgrade
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(drive_session)
}

/// A token bucket: `MESSAGES_PER_SECOND` on average, `MESSAGE_BURST` at once.
struct RateLimit {
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit {
            tokens: MESSAGE_BURST,
            last: Instant::now(),
        }
    }

    /// Whether one more message may pass now.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * MESSAGES_PER_SECOND;
        self.tokens = (self.tokens + refill).min(MESSAGE_BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Carries the page's messages to a session on its own thread and the session's back, until
/// either side goes.
async fn drive_session(mut socket: WebSocket) {
    let (to_page, mut outgoing) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (inbox, from_page) = crossbeam_channel::unbounded::<String>();
    let spawned = std::thread::Builder::new()
        .name("gui-session".into())
        .spawn(move || session::run(from_page, to_page));
    if spawned.is_err() {
        let error = view::error("the engine cannot start a session (no thread)");
        let _ = socket.send(Message::Text(error.into())).await;
        return;
    }
    let mut rate = RateLimit::new();
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if !rate.take() {
                        let error = view::error("too many messages: slow down (this one was dropped)");
                        if socket.send(Message::Text(error.into())).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    if inbox.send(text.to_string()).is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    let error = view::error("the engine reads JSON text messages only");
                    if socket.send(Message::Text(error.into())).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            reply = outgoing.recv() => match reply {
                Some(text) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
    // Dropping the inbox ends the session, which stops its engine and review.
    drop(inbox);
}
