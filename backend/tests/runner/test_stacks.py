from c10klab.runner import stacks

EPOLL = "c-epoll;main;epoll_serve;epoll_wait;entry_SYSCALL_64_after_hwframe_[k];do_epoll_wait_[k]"
SEND = (
    "c-epoll;main;run_event_loop;write;entry_SYSCALL_64_after_hwframe_[k];tcp_sendmsg_[k];"
    "__local_bh_enable_ip_[k];handle_softirqs_[k];net_rx_action_[k];tcp_v4_rcv_[k]"
)
USER = "c-epoll;main;run_event_loop;parse_request"
FAULT = "c-epoll;main;memcpy;asm_exc_page_fault_[k];handle_mm_fault_[k]"


def test_stacks_are_merged_and_counted_and_other_lines_skipped() -> None:
    lines = [
        "profiler: ready",
        f"stack 3 {EPOLL}",
        "[ perf record: Captured and wrote 0.058 MB /tmp/profile/perf.data ]",
        f"stack 2 {EPOLL}",
        f"stack 5 {USER}",
        "stack x broken",
        "samples 10",
        "idle 4",
        "other 1",
    ]
    weights, counts = stacks.parse(lines)
    assert weights == {EPOLL: 5, USER: 5} and counts == {"samples": 10, "idle": 4, "other": 1}


def test_no_closing_count_means_perf_recorded_nothing() -> None:
    assert stacks.parse([f"stack 1 {USER}"])[1] == {}
    assert stacks.profile("cpu", [], frequency_hz=499, window_s=1, requests=1) is None


def test_a_frame_that_reads_as_an_address_never_leaves() -> None:
    leaked = "c-epoll;ffffffff8207468a;main;0x55d0c0ffee12;tcp_ack_[k];h1234abcd"
    assert stacks.scrub(leaked) == "c-epoll;[unknown];main;[unknown];tcp_ack_[k];h1234abcd"
    weights, _ = stacks.parse([f"stack 1 {leaked}", "samples 1"])
    assert not any(stacks.ADDRESS.search(s) for s in weights)


def test_each_sample_is_put_where_its_time_went() -> None:
    assert stacks.kind_of(USER) == "user"
    assert stacks.kind_of(EPOLL) == "syscalls"
    # softirq wins over the call it ran within: on loopback it is the TCP stack's receive
    assert stacks.kind_of(SEND) == "softirq"
    assert stacks.kind_of(FAULT) == "other_kernel"


def test_cpu_shares_are_of_every_sample_on_the_servers_cpus() -> None:
    weights = {USER: 100, EPOLL: 200, SEND: 300, FAULT: 0}
    shares = stacks.cpu_shares(weights, idle=300, other=100)  # 1000 samples on its CPUs
    assert (shares.user, shares.syscalls, shares.softirq) == (0.1, 0.2, 0.3)
    assert (shares.idle, shares.other_work) == (0.3, 0.1)
    assert stacks.cpu_shares({}, idle=0, other=0).idle == 0  # nothing sampled: no division


def test_an_offcpu_profile_sums_blocked_and_runnable_time_and_switches_per_request() -> None:
    lines = [
        "stack 1500000 c-threaded;read;schedule_[k];[blocked]",
        "stack 250000 c-threaded;write;schedule_[k];[runnable]",
        "switches 400",
    ]
    profile = stacks.profile("offcpu", lines, frequency_hz=499, window_s=2, requests=200)
    assert profile is not None and profile.unit == "microseconds" and profile.shares is None
    assert profile.offcpu is not None
    assert (profile.offcpu.blocked_s, profile.offcpu.runnable_s) == (1.5, 0.25)
    assert profile.offcpu.switches == 400 and profile.offcpu.switches_per_request == 2


def test_the_lightest_stacks_beyond_the_kept_ones_become_one_line_and_totals_hold() -> None:
    many = [f"stack {n + 1} c-epoll;f{n}" for n in range(stacks.KEPT_STACKS + 10)]
    profile = stacks.profile("cpu", [*many, "samples 1"], frequency_hz=499, window_s=1, requests=1)
    assert profile is not None and profile.merged == 10
    assert len(profile.stacks) == stacks.KEPT_STACKS + 1
    assert profile.stacks[0].weight == stacks.KEPT_STACKS + 10  # heaviest first
    assert profile.stacks[-1].stack == stacks.OTHER_STACKS
    assert profile.stacks[-1].weight == sum(range(1, 11))
    assert sum(s.weight for s in profile.stacks) == profile.total
