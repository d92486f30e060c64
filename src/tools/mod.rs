//! Tools built on the engine but not part of it: the rules referee on the command line
//! (`cotuong judge`), analysis of positions and games (`cotuong analyze`), a game against the
//! engine (`cotuong play`) and in the browser (`cotuong gui`), the engine-versus-engine match runner (`cotuong match`), self-play
//! data (`cotuong datagen`), SPSA tuning of the search's constants (`cotuong tune`), reading game
//! files in any notation and encoding (`pgn_file`), lines of EPD files (`epd`), progress bars
//! (`progress_bar`), the frame of the SVG charts (`svg_chart`), Ctrl-C for the long jobs
//! (`interrupt`), writing output files whole (`output_file`) and standard output that a closed
//! pipe ends quietly (`stdout`). They
//! live in the binary only, so their dependencies (progress bars, JSON, plotting) stay out of
//! the library.

pub mod analyze;
pub mod datagen;
pub mod epd;
pub mod gui;
pub mod interrupt;
pub mod judge;
pub mod match_runner;
pub mod output_file;
pub mod pgn_file;
pub mod play;
pub mod progress_bar;
pub mod stdout;
pub mod svg_chart;
pub mod tune;
