# Jobs run beside a command (sourced by .ci/run): each at the lowest priority (nice 19), in a session of its own, its
# output kept apart until `wait_beside` prints it; `stop_beside` (on any exit of the sourcing script) stops each job's
# whole group, so nothing is left running.
beside_dir=$(mktemp -d)
beside_pids=()
beside_names=()

# start_beside NAME COMMAND...: starts COMMAND beside, its output kept as NAME's.
start_beside() {
  local name=$1
  shift
  # A session is an autogroup of the scheduler's of its own (sched_autogroup_enabled, Linux's sched(7)): a nice value
  # weighs only within its autogroup, so the new session's autogroup is given nice 19 too — else the job, niced or
  # not, takes as much CPU as the command it is beside (seen: beside `npm test`, a service file 5 times slower).
  setsid sh -c 'if [ -w /proc/self/autogroup ]; then echo 19 >/proc/self/autogroup; fi; exec nice -n 19 "$@"' beside "$@" \
    >"$beside_dir/${#beside_pids[@]}.log" 2>&1 &
  beside_pids+=("$!")
  beside_names+=("$name")
}

# stop_beside: every job's process group stopped (those ended already, and their groups, are gone: nothing to stop),
# and their kept output removed.
stop_beside() {
  local pid
  for pid in "${beside_pids[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  rm -rf "$beside_dir"
}

# wait_beside: waits for each job in turn and prints its output under a line naming it and how it ended; 1 when any failed.
wait_beside() {
  local i result status=0
  for i in "${!beside_pids[@]}"; do
    if wait "${beside_pids[$i]}"; then result=passed; else result="failed ($?)" status=1; fi
    echo "--- ${beside_names[$i]} (beside): $result"
    cat "$beside_dir/$i.log"
  done
  return "$status"
}
