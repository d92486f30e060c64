//! `cotuong gui`: play, analyse and review in the browser. A small HTTP server on loopback serves
//! the page (compiled into the binary) and one WebSocket per open page; each socket drives its own
//! [`session::Session`] (a game, an engine, a review) on a thread of its own.
//!
//! The files: the arguments, the token and the start here, the HTTP side and its checks in
//! [`server`], the page's messages in [`protocol`], what the page is told in [`view`], a page's
//! game in [`session`], its clocks in [`clocks`] and the game review in [`review`].

mod clocks;
mod protocol;
mod review;
mod server;
mod session;
mod view;

use clap::Args;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::process::ExitCode;

/// Bytes of the per-run token (128 bits: not guessable by a page that tries).
const TOKEN_BYTES: usize = 16;

/// Arguments of `cotuong gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port to listen on (0: a free one).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Address to listen on. Anything but loopback lets other machines reach the page (with the
    /// token), so it is said out loud.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// Only print the address; do not open a browser.
    #[arg(long)]
    pub no_browser: bool,
}

/// Runs `cotuong gui` until Ctrl-C: exit status 0, or 2 with `error: ...` when it cannot start.
pub fn main(args: &GuiArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &GuiArgs) -> Result<(), String> {
    let token = new_token()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(args.host, args.port))
            .await
            .map_err(|e| format!("cannot listen on {}:{}: {e}", args.host, args.port))?;
        let address = listener
            .local_addr()
            .map_err(|e| format!("cannot read the listening address: {e}"))?;
        let url = format!("http://{}/?token={token}", url_host(address));
        if !args.host.is_loopback() {
            say(&format!(
                "warning: listening on {address}, not loopback only: other machines that can \
                 reach it may open the page (they still need the token)"
            ));
        }
        say(&format!("Cotuong GUI at {url}"));
        say("Press Ctrl-C to stop.");
        if !args.no_browser {
            if let Err(e) = webbrowser::open(&url) {
                say(&format!("(no browser opened: {e}; open the address above)"));
            }
        }
        server::serve(listener, address, token).await
    })
}

/// Prints a line; a closed standard output (a script that read the address and went) does not
/// stop the server.
fn say(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// `host:port` as a URL writes it (IPv6 addresses in brackets).
fn url_host(address: SocketAddr) -> String {
    match address {
        SocketAddr::V4(a) => a.to_string(),
        SocketAddr::V6(a) => format!("[{}]:{}", a.ip(), a.port()),
    }
}

/// A fresh random token, as hex.
fn new_token() -> Result<String, String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random source for the token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
