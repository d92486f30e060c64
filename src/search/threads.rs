//! The thread driver (Lazy SMP): starts `threads - 1` helpers that search the same root and
//! share only the TT and the table of moves being searched (`deferral`), runs the main worker
//! (which owns time control and reporting) on the calling thread, then stops the helpers and
//! returns the decision the threads vote for (see `vote`).

use super::control::SearchControl;
use super::job::Job;
use super::tt::TranspositionTable;
use super::vote;
use super::worker::{ThreadData, Worker, THREAD_STACK_BYTES};
use super::{Info, SearchRequest, SearchResult};
use std::sync::atomic::Ordering;

/// Runs a search on `threads.len()` threads (at least one) and returns the decision the threads
/// vote for. `report` receives the main thread's progress (and the chosen line when a helper's
/// move wins the vote).
pub(super) fn run(
    job: &Job,
    request: &SearchRequest,
    tt: &TranspositionTable,
    ctl: &SearchControl,
    threads: &mut [ThreadData],
    report: &mut dyn FnMut(&Info),
) -> SearchResult {
    tt.new_search();
    let (main_data, helpers) = threads
        .split_first_mut()
        .expect("at least one search thread");
    let (results, chosen) = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(helpers.len());
        for (i, data) in helpers.iter_mut().enumerate() {
            let id = i + 1;
            let spawned = std::thread::Builder::new()
                .name(format!("search-helper-{id}"))
                .stack_size(THREAD_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, job, request, tt, ctl, data, None);
                    w.iterative_deepening();
                    // A depth-limited search answers at a completed depth (see `vote`).
                    if request.depth.is_some() {
                        w.completed_result()
                    } else {
                        w.result()
                    }
                });
            match spawned {
                Ok(handle) => handles.push(handle),
                // Out of threads: search with the helpers that did start.
                Err(_) => break,
            }
        }
        let mut main = Worker::new(0, job, request, tt, ctl, main_data, Some(&mut *report));
        main.iterative_deepening();
        ctl.stop.store(true, Ordering::SeqCst);
        let mut results = vec![main.result()];
        results.extend(handles.into_iter().filter_map(|h| h.join().ok()));
        // MultiPV lines are the main thread's ranking; with one line, the threads vote (in a
        // depth-limited search only those that got as deep as the main thread).
        let min_depth = if request.depth.is_some() {
            results[0].depth
        } else {
            1
        };
        let chosen = if request.multipv <= 1 {
            vote::best_thread(&results, min_depth)
        } else {
            0
        };
        (results, chosen)
    });
    let result = results.into_iter().nth(chosen).expect("chosen thread");
    if chosen != 0 {
        report_chosen_line(&result, tt, ctl, report);
    }
    SearchResult {
        nodes: ctl.total_nodes(),
        ..result
    }
}

/// Reports the line of a helper thread whose move the vote chose, so that the GUI's last line
/// is the one of the move played.
fn report_chosen_line(
    result: &SearchResult,
    tt: &TranspositionTable,
    ctl: &SearchControl,
    report: &mut dyn FnMut(&Info),
) {
    let info = result.lines.first().and_then(|line| {
        line.iteration_info(
            result.depth,
            1,
            ctl.total_nodes(),
            ctl.elapsed().as_millis() as u64,
            tt.hashfull(),
        )
    });
    if let Some(info) = info {
        report(&info);
    }
}
