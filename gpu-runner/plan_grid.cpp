// Tests with several grids (docs/gpu-runner.md, "Grids"): each grid is a launch of the test
// kernel in one stream, in the order of litmus::launchOrder; the roles (test clusters) of other
// grids stay idle in it. A cluster, hence a role, lies in one grid (litmus/validate_grid.cpp).
#include "gpu-runner/plan.h"

namespace gpu {

void planGrids(const litmus::Test& test, Plan& plan) {
  const litmus::LaunchOrder order = litmus::launchOrder(test);
  plan.gridProgrammatic = order.programmatic;
  plan.roleGrid.assign(plan.roles.size(), 0);
  for (size_t t = 0; t < test.threads.size(); ++t)
    plan.roleGrid[static_cast<size_t>(plan.threads[t].role)] = order.position(test.threads[t].grid);
}

}  // namespace gpu
