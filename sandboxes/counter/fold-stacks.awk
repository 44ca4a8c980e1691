# fold-stacks.awk: perf script's stacks, folded one line each, names only (profile-stacks.sh).
#
#   stack WEIGHT comm;outermost;...;innermost     frames root first; kernel frames end in _[k]
#   samples N | switches N                        how many stacks (cpu) or switches (offcpu)
#
# cpu: WEIGHT is the number of samples of that stack. offcpu: WEIGHT is microseconds off the
# CPU, from a switch out (the sched_switch sample, whose stack is where the thread blocked or
# was preempted) to that thread's next switch back in (PERF_RECORD_SWITCH IN); the last frame
# says which: [blocked] (it slept: I/O, a lock, accept) or [runnable] (preempted: it waited
# for the CPU). Addresses are read only to be dropped. `main` is the server's own name
# (/proc/1/comm), for threads perf saw start only while its events were off.
function flush(   stack, i) {
    if (nframes == 0 && comm == "") return
    stack = comm
    for (i = nframes; i >= 1; i--) stack = stack ";" frames[i]
    if (mode == "cpu") {
        weight[stack] += 1
        samples += 1
    } else if (pending_tid != "") {
        out_stack[pending_tid] = stack ";" pending_state
        out_time[pending_tid] = pending_time
    }
    nframes = 0; comm = ""; pending_tid = ""
}
# A frame line: "\t ADDRESS SYMBOL (DSO)"; the symbol may hold spaces (Rust's <T as Trait>).
function frame(line,   sym, dso, open) {
    sub(/^[ \t]+[0-9a-f]+ /, "", line)
    open = match(line, / \([^()]*\)$/)
    if (open) {
        dso = substr(line, open + 2, length(line) - open - 2)
        sym = substr(line, 1, open - 1)
    } else {
        dso = ""; sym = line
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
/^[ \t]+[0-9a-f]+ / { frames[++nframes] = frame($0); next }
/^[ \t]*$/ { flush(); next }
{
    flush()
    # A thread started while recording was off has no name perf saw: it is the server's.
    comm = ($1 ~ /^:[0-9]+$/) ? main : $1
    if (mode != "offcpu") next
    # "comm tid time: PERF_RECORD_SWITCH IN" / "... OUT [preempt]" / "... sched:sched_switch: ..."
    tid = $2
    if ($0 ~ /PERF_RECORD_SWITCH IN/) {
        if (tid in out_time) {
            micros = (seconds($3) - out_time[tid]) * 1000000
            if (micros > 0) weight[out_stack[tid]] += micros
            delete out_time[tid]
        }
        comm = ""
    } else if ($0 ~ /sched:sched_switch:/) {
        switches += 1
        pending_tid = tid
        pending_time = seconds($3)
        pending_state = ($0 ~ /prev_state=R/) ? "[runnable]" : "[blocked]"
    } else {
        comm = ""
    }
}
END {
    flush()
    for (stack in weight) printf "stack %d %s\n", weight[stack] + 0.5, stack
    if (mode == "cpu") printf "samples %d\n", samples
    else printf "switches %d\n", switches
}
