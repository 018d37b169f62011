// `litmus report RESULTS... -o report.html` (docs/report.md): the command line of report/.
#pragma once

namespace report {

// Exit 0 written, 2 bad input or usage (nothing written), 4 internal error.
int cmdReport(int argc, char** argv);

}  // namespace report
