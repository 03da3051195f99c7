//! `ccsim-example-cc SCENARIO.toml`: run a scenario with this crate's algorithms registered,
//! and print each flow's goodput.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: ccsim-example-cc SCENARIO.toml");
        return ExitCode::from(2);
    };
    ccsim_example_cc::register();
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("ccsim-example-cc: cannot read {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let spec = match ccsim_scenario::parse_spec_toml(&text)
        .and_then(|s| ccsim_scenario::check(&s).map(|()| s))
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("ccsim-example-cc: error: {e}");
            return ExitCode::from(2);
        }
    };
    match ccsim_scenario::run(&spec, ccsim_scenario::RunOptions::default(), &mut |_| true) {
        Ok(outcome) => {
            for (name, flow) in &outcome.summary.flows {
                println!("{name}: {:.3} Mbit/s", flow.goodput_bps / 1e6);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ccsim-example-cc: error: {e}");
            ExitCode::from(1)
        }
    }
}
