# fold-stacks.awk: perf script's stacks, folded one line each, names only (profile-stacks.sh).
#
#   stack WEIGHT comm;outermost;...;innermost   the server's stacks, root first; kernel _[k]
#   samples N / idle N / other N                cpu: the server's samples, the idle task's,
#                                                and every other task's on the same CPUs
#   switches N                                  offcpu: the server's switches off the CPU
#
# perf recorded the server's CPUs; a sample's pid is the task's in the server's PID namespace,
# 0 for any task outside it (perf's header reads "comm pid/tid"). Those are not the server's:
# counted as idle (the idle task's stack runs through do_idle) or as other work, never shown.
# `ours` lists the profiler's own pids (its shell and perf), also left out.
#
# offcpu: a sched_switch sample runs as the task switched out (its pid, its stack: where it
# blocked or was preempted); its payload names both tasks by their global pids. The time from
# a server task's switch out to the switch that puts it back (next_pid) is added to the stack
# it left from, in microseconds, ending in [blocked] (it slept: I/O, a lock, accept) or
# [runnable] (preempted while ready: it waited for the CPU). Addresses are read to be dropped.
# `main` is the server's name (/proc/1/comm), for tasks perf saw start only while its events
# were off (it names them ":TID").
BEGIN {
    n = split(ours, list, " ")
    for (i = 1; i <= n; i++) mine[list[i]] = 1
}
function flush(   stack, i) {
    if (!pending) return
    pending = 0
    if (!server) {
        if (mode == "cpu") {
            if (idle_stack) idle += 1
            else other += 1
        }
        nframes = 0
        return
    }
    stack = comm
    for (i = nframes; i >= 1; i--) stack = stack ";" frames[i]
    nframes = 0
    if (mode == "cpu") {
        weight[stack] += 1
        samples += 1
    } else {
        out_stack[out_pid] = stack ";" out_state
        out_time[out_pid] = at
        switches += 1
    }
}
# A frame line: "\t ADDRESS SYMBOL (DSO)"; the symbol may hold spaces (Rust's <T as Trait>).
function frame(line,   sym, dso, open, parts, n) {
    sub(/^[ \t]+[0-9a-f]+ /, "", line)
    open = match(line, / \([^()]*\)$/)
    if (open) {
        dso = substr(line, open + 2, length(line) - open - 2)
        sym = substr(line, 1, open - 1)
    } else {
        dso = ""
        sym = line
    }
    sub(/\+0x[0-9a-f]+$/, "", sym)
    gsub(/;/, ":", sym)
    if (dso == "[kernel.kallsyms]") return sym "_[k]"
    if (sym == "[unknown]" && dso != "" && dso != "[unknown]") {
        n = split(dso, parts, "/")
        return "[" parts[n] "]"
    }
    return sym
}
function seconds(text) { sub(/:$/, "", text); return text + 0 }
function field(name,   i) {  # a payload's NAME=VALUE, as perf prints sched_switch
    for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2)
    return ""
}
/^[ \t]+[0-9a-f]+ / {
    if (pending) {
        frames[++nframes] = frame($0)
        if (!server && $0 ~ / (do_idle|cpuidle_idle_call|default_idle)/) idle_stack = 1
    }
    next
}
/^[ \t]*$/ { flush(); next }
{
    flush()
    split($2, ids, "/")
    pid = ids[1]
    server = (pid != 0 && !(pid in mine))
    idle_stack = 0
    comm = ($1 ~ /^:-?[0-9]+$/) ? main : $1
    pending = 1
    if (mode != "offcpu") next
    at = seconds($3)
    back = field("next_pid")
    if (back in out_time) {
        micros = (at - out_time[back]) * 1000000
        if (micros > 0) weight[out_stack[back]] += micros
        delete out_time[back]
        delete out_stack[back]
    }
    out_pid = field("prev_pid")
    out_state = (field("prev_state") ~ /^R/) ? "[runnable]" : "[blocked]"
    # A task switched out for the last time (it exited: X or Z) never comes back; its pid may
    # be a new task's by the next switch in.
    if (field("prev_state") ~ /^[XZ]/) server = 0
}
END {
    flush()
    # %.0f, not %d: a sum of microseconds passes 2^31 (awk's %d is a C int in mawk)
    for (stack in weight) printf "stack %.0f %s\n", weight[stack], stack
    if (mode == "cpu") printf "samples %d\nidle %d\nother %d\n", samples, idle, other
    else printf "switches %d\n", switches
}
