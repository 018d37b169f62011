#!/usr/bin/env python3
"""Runs a GitHub Actions workflow of scripts/recipes locally, as far as a recipe needs: every job
of the matrix as a separate process (all at once), each in its own directory with the repository's
scripts/ and catalog/ and the litmus binary as build/litmus; `run:` steps under bash with the
workflow's env and ${{ matrix.X }} / ${{ strategy.job-total }} substituted; upload-artifact and
download-artifact (merge-multiple) as copies through one artifact directory; checkout and the build
step (scripts/setup.sh) skipped, since the binary is given. Jobs run in `needs` order.

    run_workflow.py WORKFLOW.yml LITMUS SOURCE-DIR WORKDIR
Exits with the status of the last job's last step; prints each job's status."""
import os
import re
import shutil
import subprocess
import sys

import yaml


def substitute(text, matrix, total):
    def one(m):
        expr = m.group(1).strip()
        if expr.startswith("matrix."):
            return str(matrix[expr[len("matrix."):]])
        if expr == "strategy.job-total":
            return str(total)
        raise SystemExit(f"run_workflow: unsupported expression ${{{{ {expr} }}}}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def prepare(jobdir, litmus, src):
    os.makedirs(os.path.join(jobdir, "build"), exist_ok=True)
    os.symlink(os.path.abspath(litmus), os.path.join(jobdir, "build", "litmus"))
    for d in ("scripts", "catalog"):
        os.symlink(os.path.join(src, d), os.path.join(jobdir, d))


def start_job(job, matrix, total, env, jobdir, artifacts):
    """Runs the steps of one job instance; returns its exit status (runs in a child process)."""
    status = 0
    for step in job["steps"]:
        uses = step.get("uses", "")
        if uses.startswith("actions/checkout"):
            continue
        if uses.startswith("actions/upload-artifact"):
            name = substitute(step["with"]["name"], matrix, total)
            path = os.path.join(jobdir, step["with"]["path"])
            dest = os.path.join(artifacts, name)
            if os.path.isdir(path):
                shutil.copytree(path, dest, dirs_exist_ok=True)
            else:
                os.makedirs(dest, exist_ok=True)
                shutil.copy(path, dest)
            continue
        if uses.startswith("actions/download-artifact"):
            dest = os.path.join(jobdir, step["with"]["path"])
            os.makedirs(dest, exist_ok=True)
            for name in sorted(os.listdir(artifacts)):
                shutil.copytree(os.path.join(artifacts, name), dest, dirs_exist_ok=True)
            continue
        if uses:
            raise SystemExit(f"run_workflow: unsupported action {uses}")
        script = substitute(step["run"], matrix, total)
        if "scripts/setup.sh" in script:
            continue  # the binary is given
        status = subprocess.call(["bash", "-eo", "pipefail", "-c", script], cwd=jobdir, env=env)
        if status != 0:
            return status
    return status


def main():
    workflow, litmus, src, work = sys.argv[1:5]
    wf = yaml.safe_load(open(workflow))
    env = dict(os.environ)
    env.update({k: str(v) for k, v in (wf.get("env") or {}).items()})
    artifacts = os.path.join(work, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    done, status = set(), 0
    jobs = wf["jobs"]
    while len(done) < len(jobs):
        for name, job in jobs.items():
            needs = job.get("needs", [])
            needs = [needs] if isinstance(needs, str) else needs
            if name in done or any(n not in done for n in needs):
                continue
            keys = (job.get("strategy") or {}).get("matrix") or {}
            axis = next(iter(keys.items()), None)
            instances = [{axis[0]: v} for v in axis[1]] if axis else [{}]
            procs = []
            for i, matrix in enumerate(instances):
                jobdir = os.path.join(work, f"{name}-{i + 1}")
                prepare(jobdir, litmus, src)
                pid = os.fork()
                if pid == 0:
                    os._exit(start_job(job, matrix, len(instances), env, jobdir, artifacts))
                procs.append((matrix, pid))
            for matrix, pid in procs:
                status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
                print(f"job {name} {matrix}: exit {status}")
            done.add(name)
    return status


if __name__ == "__main__":
    sys.exit(main())
