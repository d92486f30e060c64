//! A game's review as one self-contained HTML page: the moves (clickable, in the chosen
//! notation, judged moves marked), a board showing the position of the move clicked, the
//! evaluation graph (clickable too: a click picks the nearest position), and the judgements with
//! the engine's best lines. The script and the styles are inline; the page loads nothing.
//!
//! The page opens on the position named by its address' fragment (`#ply=5`: after the fifth
//! move; 0 the start), and the board carries the position shown in `data-ply` and `data-fen`,
//! so that a browser test can check what a click shows.

use engine_core::{Color, Notation, Position};
use serde::Serialize;
use std::fmt::Write as _;

use super::game_review::GameReview;
use super::graph;
use super::judgement::{percent, Judgement};
use super::score::with_depth;
use super::table::{move_label, summary_line, verdict_text, CONVENTION};

/// What the page's script reads.
#[derive(Serialize)]
struct PageData {
    /// FEN of every position, the start first.
    fens: Vec<String>,
    /// Score of every position with its depth.
    scores: Vec<String>,
    /// Pieces in FEN letters instead of characters.
    ascii: bool,
    /// Horizontal range of the graph's plotting area, as fractions of its width, and its
    /// first and last move-number coordinate.
    graph: (f64, f64, f64, f64),
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn css_colour(j: Judgement) -> String {
    let c = graph::colour(j);
    format!("rgb({},{},{})", c.0, c.1, c.2)
}

const STYLE: &str = r#"
body{font-family:sans-serif;margin:16px;color:#222;background:#fafafa}
h1{font-size:20px;margin:0 0 8px}
#top{display:flex;gap:24px;align-items:flex-start;flex-wrap:wrap}
#board{display:grid;grid-template-columns:repeat(9,40px);grid-template-rows:repeat(10,40px);
 background:#e8c88a;border:3px solid #8b5a2b;padding:6px;position:relative}
#board div{display:flex;align-items:center;justify-content:center;font-size:26px;
 background:linear-gradient(#8b5a2b,#8b5a2b) center/1px 100% no-repeat,
 linear-gradient(#8b5a2b,#8b5a2b) center/100% 1px no-repeat}
#board div.n{background:linear-gradient(#8b5a2b,#8b5a2b) center top/1px 50% no-repeat,
 linear-gradient(#8b5a2b,#8b5a2b) center/100% 1px no-repeat}
#board div.s{background:linear-gradient(#8b5a2b,#8b5a2b) center bottom/1px 50% no-repeat,
 linear-gradient(#8b5a2b,#8b5a2b) center/100% 1px no-repeat}
#board span{display:flex;width:34px;height:34px;border-radius:50%;background:#fff6e0;
 border:2px solid currentColor;align-items:center;justify-content:center;font-size:22px}
#board span.r{color:#c00}#board span.b{color:#111}
#board div.from{background-color:rgba(0,120,255,.2)}#board div.to{background-color:rgba(0,120,255,.4)}
#board svg{position:absolute;left:6px;top:6px;pointer-events:none;z-index:0}
#board span{position:relative;z-index:1}
#moves{position:relative;max-height:430px;overflow-y:auto;min-width:260px;border:1px solid #ccc;background:#fff;
 padding:6px;line-height:1.8}
#moves a{cursor:pointer;padding:1px 4px;border-radius:3px;text-decoration:none;color:#036}
#moves a.sel{background:#036;color:#fff}
#info{margin:6px 0;font-size:15px}
#graph{cursor:crosshair;margin-top:12px}#graph svg{max-width:100%;height:auto}
.j{font-weight:bold}
#judgements li{margin:4px 0;cursor:pointer}
"#;

const SCRIPT: &str = r#"
const D=JSON.parse(document.getElementById('data').textContent);
const MARKS=document.getElementById('marks').innerHTML;
const CH={K:'帥',A:'仕',B:'相',N:'傌',R:'俥',C:'炮',P:'兵',k:'將',a:'士',b:'象',n:'馬',r:'車',c:'砲',p:'卒'};
function cells(fen){const rows=fen.split(' ')[0].split('/');const out=[];
 for(const row of rows){for(const ch of row){if(ch>='1'&&ch<='9'){for(let i=0;i<+ch;i++)out.push('');}
 else out.push(ch);}}return out;}
function show(ply){ply=Math.max(0,Math.min(D.fens.length-1,ply|0));
 const b=document.getElementById('board');const now=cells(D.fens[ply]);
 const before=ply>0?cells(D.fens[ply-1]):now;b.innerHTML='';
 now.forEach((p,i)=>{const d=document.createElement('div');
  const row=Math.floor(i/9),col=i%9;
  if((row==4||row==5)&&col>0&&col<8)d.className=row==4?'n':'s';
  if(ply>0&&before[i]!==p){d.classList.add(p===''?'from':'to');}
  if(p){const s=document.createElement('span');s.className=(p===p.toUpperCase())?'r':'b';
   s.textContent=D.ascii?p:CH[p];d.appendChild(s);}b.appendChild(d);});
 b.insertAdjacentHTML('beforeend',MARKS);
 b.dataset.ply=ply;b.dataset.fen=D.fens[ply];
 document.querySelectorAll('#moves a').forEach(a=>a.classList.toggle('sel',+a.dataset.ply===ply));
 const a=document.querySelector('#moves a[data-ply="'+ply+'"]');
 const box=document.getElementById('moves');
 if(a)box.scrollTop=Math.max(0,a.offsetTop-box.clientHeight/2);
 document.getElementById('info').textContent=(ply?('after '+a.textContent+': '):'start: ')+D.scores[ply];
 if(location.hash!=='#ply='+ply)history.replaceState(null,'','#ply='+ply);}
document.querySelectorAll('[data-ply]').forEach(e=>{if(e.id!=='board')e.addEventListener('click',ev=>{ev.preventDefault();show(+e.dataset.ply);});});
document.getElementById('graph').addEventListener('click',ev=>{const r=ev.currentTarget.getBoundingClientRect();
 const f=(ev.clientX-r.left)/r.width;const [l,rt]=D.graph;const t=(f-l)/(rt-l);
 show(Math.round(t*(D.fens.length-1)));});
document.addEventListener('keydown',ev=>{const p=+document.getElementById('board').dataset.ply;
 if(ev.key==='ArrowRight')show(p+1);if(ev.key==='ArrowLeft')show(p-1);});
const m=/ply=(\d+)/.exec(location.hash);show(m?+m[1]:0);
"#;

/// The page of `review`, moves in `notation`, titled `title`; pieces in letters if `ascii`.
pub fn page(
    review: &GameReview,
    notation: Notation,
    title: &str,
    ascii: bool,
) -> Result<String, String> {
    let game = &review.game;
    let first = &game.start;
    let mut pos: Position = game.start.clone();
    let mut fens = vec![pos.to_fen()];
    for m in &review.moves {
        pos.make_move(m.mv);
        fens.push(pos.to_fen());
    }
    let svg = graph::svg(review, title)?;
    // The plotting area of the graph, as fractions of its width (see `graph` and `svg_chart`).
    let (width, _) = graph::SIZE;
    let left = f64::from(graph::PLOT_LEFT) / f64::from(width);
    let right = 1.0 - f64::from(graph::PLOT_RIGHT) / f64::from(width);
    let data = PageData {
        fens,
        scores: review
            .scores
            .iter()
            .zip(&review.depths)
            .map(|(&s, &d)| with_depth(s, d))
            .collect(),
        ascii,
        graph: (
            left,
            right,
            graph::x_of(review, 0),
            graph::x_of(review, review.scores.len().saturating_sub(1)),
        ),
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| format!("cannot encode the page's data: {e}"))?
        .replace("</", "<\\/");
    let mut moves = String::new();
    for m in &review.moves {
        if m.side == Color::Red || moves.is_empty() {
            let _ = write!(moves, "{} ", move_label(first, m));
        }
        let mark = m.judgement.map_or(String::new(), |j| {
            format!(
                "<span class=\"j\" style=\"color:{}\">{}</span>",
                css_colour(j),
                j.symbol()
            )
        });
        let _ = write!(
            moves,
            "<a href=\"#ply={}\" data-ply=\"{}\" title=\"{}\">{}</a>{mark} ",
            m.ply,
            m.ply,
            escape(&with_depth(m.score, m.depth)),
            escape(&notation.format(&m.before, m.mv))
        );
        if m.side == Color::Black {
            moves.push_str("<br>\n");
        }
    }
    let mut judged = String::new();
    for m in review
        .moves
        .iter()
        .filter(|m| m.judgement.is_some() || m.mate.is_some())
    {
        let colour = m.judgement.map_or("inherit".to_string(), css_colour);
        let loss = if percent(m.drop) == percent(0) {
            String::new()
        } else {
            format!(" (loses {})", percent(m.drop))
        };
        let best = if m.found_best() {
            String::new()
        } else {
            format!(
                "; best {} {}",
                escape(&notation.format_line(&m.before, &m.best.pv).join(" ")),
                escape(&with_depth(m.best.score, m.depth))
            )
        };
        let _ = writeln!(
            judged,
            "<li data-ply=\"{}\"><b>{} {}</b> <span class=\"j\" style=\"color:{colour}\">{}</span>\
             {loss}{best}</li>",
            m.ply,
            escape(&move_label(first, m)),
            escape(&notation.format(&m.before, m.mv)),
            escape(&verdict_text(m)),
        );
    }
    let summary = [Color::Red, Color::Black]
        .map(|side| format!("<li>{}</li>", escape(&summary_line(review, side))))
        .join("");
    let result = review.result.as_ref().map_or(String::new(), |r| {
        format!("<p>The game is over: {}</p>", escape(r))
    });
    let title = escape(title);
    let convention = escape(CONVENTION);
    let marks = board_marks(ascii);
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n\
         <div id=\"top\">\n<div><div id=\"board\" data-ply=\"0\"></div><div id=\"info\"></div>\
         </div>\n<div id=\"moves\"><a href=\"#ply=0\" data-ply=\"0\">start</a><br>\n{moves}</div>\n\
         <div><h2>Judgements</h2><ul id=\"judgements\">\n{judged}</ul><ul>{summary}</ul>{result}\
         </div>\n</div>\n<div id=\"graph\">{svg}</div>\n<p id=\"convention\">{convention}</p>\n\
         <template id=\"marks\">{marks}</template>\n\
         <script type=\"application/json\" id=\"data\">{json}</script>\n\
         <script>{SCRIPT}</script>\n</body>\n</html>\n"
    ))
}

/// Pixels between two points of the board (its grid's cells).
const POINT: u32 = 40;

/// The board's markings that its grid of cells does not draw, as SVG over the points: the
/// palaces' diagonals and the river's words (the cells already leave the river open).
fn board_marks(ascii: bool) -> String {
    let at = |n: u32| POINT / 2 + POINT * n;
    let mut lines = String::new();
    // Each palace: files d to f (3 to 5), three ranks from either edge (rows 0-2 and 7-9).
    for top in [0, 7] {
        for (x1, x2) in [(3, 5), (5, 3)] {
            let _ = write!(
                lines,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                at(x1),
                at(top),
                at(x2),
                at(top + 2)
            );
        }
    }
    let (left, right) = if ascii {
        ("Chu River", "Han Border")
    } else {
        ("楚 河", "漢 界")
    };
    // The river's middle, between the points of rows 4 and 5.
    let river_y = POINT * 5;
    format!(
        "<svg width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" class=\"marks\">\
         <g stroke=\"#8b5a2b\" stroke-width=\"1\">{lines}</g>\
         <g fill=\"#8b5a2b\" fill-opacity=\"0.7\" font-size=\"16\" text-anchor=\"middle\" \
         dominant-baseline=\"middle\">\
         <text x=\"{lx}\" y=\"{river_y}\">{left}</text><text x=\"{rx}\" y=\"{river_y}\">{right}</text></g></svg>",
        w = POINT * 9,
        h = POINT * 10,
        lx = at(2),
        rx = at(6),
    )
}

/// The start of an index entry's line, by which a resumed run finds the entries.
const INDEX_ENTRY: &str = "<li class=\"game\">";

/// An index entry: a link to the page `file`, described by `text`.
pub fn index_entry(file: &str, text: &str) -> String {
    format!(
        "{INDEX_ENTRY}<a href=\"{}\">{}</a></li>",
        escape(file),
        escape(text)
    )
}

/// The entries of an index page written before.
pub fn read_index_entries(page: &str) -> Vec<String> {
    page.lines()
        .filter(|l| l.starts_with(INDEX_ENTRY))
        .map(str::to_string)
        .collect()
}

/// The index page of a review of several games: one entry per game's page, and `note` (an
/// interruption) at the end.
pub fn index(entries: &[String], annotator: &str, note: Option<&str>) -> String {
    let title = escape(&format!("Games reviewed by {annotator}"));
    let note = note.map_or(String::new(), |n| {
        format!("<p id=\"note\">{}</p>\n", escape(n))
    });
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{INDEX_STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n\
         <ol>\n{}\n</ol>\n{note}<p>{}</p>\n</body>\n</html>\n",
        entries.join("\n"),
        escape(CONVENTION)
    )
}

const INDEX_STYLE: &str = "body{font-family:sans-serif;margin:16px;color:#222;background:#fafafa}\
h1{font-size:20px}li{margin:6px 0}a{color:#036}#note{color:#a00}";
