//! The provided buffer ring (Linux 5.19): the receive buffers the kernel picks from.
//!
//! With a buffer ring, a recv SQE names no buffer. The kernel takes one from a ring of
//! buffers we registered, only when bytes arrive, and its CQE says which; we copy the bytes
//! out and hand the buffer back. So an idle connection holds no receive buffer at all, and
//! ten thousand connections need only as many buffers as receive at once. This file holds the
//! ring ([`BufferRing`]) and the page-aligned memory it lives in (`Mapping`); the kernel
//! reads and writes both behind our back, which is why each `unsafe` block says what keeps
//! that memory valid.

use std::io;
use std::ptr::{self, NonNull};
use std::sync::atomic::{AtomicU16, Ordering};

use io_uring::IoUring;
use io_uring::types::BufRingEntry;

use crate::log::{die, log};

/// `--buffers` x `--buffer-bytes` may not exceed this (1 GiB).
pub const MAX_BUFFER_RING_BYTES: usize = 1 << 30;
/// Our buffer ring's id (its "buffer group").
pub const BUFFER_GROUP: u16 = 0;

/// True if `count` buffers of `buffer_bytes` each stay within [`MAX_BUFFER_RING_BYTES`].
pub fn fits(count: u32, buffer_bytes: usize) -> bool {
    count as usize * buffer_bytes <= MAX_BUFFER_RING_BYTES
}

/// Anonymous memory from mmap(): page-aligned and zero-filled, as the kernel wants a buffer
/// ring; unmapped when dropped.
struct Mapping {
    address: NonNull<u8>,
    bytes: usize,
}

impl Mapping {
    fn new(bytes: usize, what: &str) -> Mapping {
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing
        // touches no memory of ours.
        let address = unsafe {
            libc::mmap(
                ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if address == libc::MAP_FAILED {
            die(format_args!(
                "mmap({bytes} bytes) for {what} failed: {}",
                io::Error::last_os_error()
            ));
        }
        let address = NonNull::new(address.cast()).expect("mmap never returns NULL here");
        Mapping { address, bytes }
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: we mapped exactly this range in Mapping::new, and nothing uses it any more.
        if unsafe { libc::munmap(self.address.as_ptr().cast(), self.bytes) } < 0 {
            log(format_args!(
                "munmap() failed: {}",
                io::Error::last_os_error()
            ));
        }
    }
}

/// The provided buffer ring (Linux 5.19): an array of {address, length, buffer id} that we
/// fill at the tail and the kernel takes from at the head, one buffer per received chunk;
/// the CQE says which buffer (its id) holds the bytes. Plus the buffers themselves.
pub struct BufferRing {
    entries: Mapping,
    memory: Mapping,
    mask: u16,
    tail: u16,
    buffer_bytes: usize,
}

impl BufferRing {
    /// Relies on: IORING_REGISTER_PBUF_RING. The ring's size must be a power of two, and the
    /// kernel reads it where we put it, so it is page-aligned memory of our own. Returns the
    /// kernel's error if it says no (before 5.19).
    ///
    /// The ring must be dropped only after `ring` (the kernel writes into its buffers until
    /// then): the Server holds both, in that order.
    // ANCHOR: buffer-ring
    pub fn register(ring: &IoUring, count: u16, buffer_bytes: usize) -> io::Result<BufferRing> {
        let entries = count.next_power_of_two();
        let ring_memory = Mapping::new(
            usize::from(entries) * std::mem::size_of::<BufRingEntry>(),
            "the buffer ring",
        );
        // SAFETY: the ring memory stays mapped until this BufferRing is dropped, which the
        // Server does only after the IoUring (field order), and so after the kernel has let
        // go of it.
        unsafe {
            ring.submitter().register_buf_ring_with_flags(
                ring_memory.address.as_ptr() as u64,
                entries,
                BUFFER_GROUP,
                0,
            )?;
        }
        let memory = Mapping::new(usize::from(count) * buffer_bytes, "the receive buffers");
        let mut buffers = BufferRing {
            entries: ring_memory,
            memory,
            mask: entries - 1,
            tail: 0,
            buffer_bytes,
        };
        for id in 0..count {
            buffers.recycle(id); // the kernel sees each buffer from now on
        }
        Ok(buffers)
    }
    // ANCHOR_END: buffer-ring

    /// The first `len` bytes of buffer `id`, which a CQE has just handed us.
    pub fn bytes(&self, id: u16, len: usize) -> &[u8] {
        assert!(len <= self.buffer_bytes);
        // SAFETY: buffer `id` lies inside `memory`; the kernel wrote `len` bytes into it and,
        // having reported them, does not touch it again until we recycle it.
        unsafe {
            std::slice::from_raw_parts(
                self.memory
                    .address
                    .as_ptr()
                    .add(usize::from(id) * self.buffer_bytes),
                len,
            )
        }
    }

    /// Hands buffer `id` back to the kernel: it goes in at the ring's tail.
    pub fn recycle(&mut self, id: u16) {
        let base = self.entries.address.as_ptr().cast::<BufRingEntry>();
        let address = self.memory.address.as_ptr() as usize + usize::from(id) * self.buffer_bytes;
        // SAFETY: the slot at our tail is inside the ring, and the kernel reads only the slots
        // between its head and the tail we last published, which this one is not. The tail
        // itself lives in slot 0's reserved field, which the setters do not touch; it is
        // published with a release store, so the kernel sees the slot filled before it sees
        // the new tail.
        unsafe {
            let slot = &mut *base.add(usize::from(self.tail & self.mask));
            slot.set_addr(address as u64);
            slot.set_len(self.buffer_bytes as u32);
            slot.set_bid(id);
            self.tail = self.tail.wrapping_add(1);
            AtomicU16::from_ptr(BufRingEntry::tail(base).cast_mut())
                .store(self.tail, Ordering::Release);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::panic::AssertUnwindSafe;

    use super::*;
    use crate::uring::test_ring;

    /// Slot `index` of the ring as (address, length, buffer id), and the published tail.
    fn slot(buffers: &BufferRing, index: usize) -> (u64, u32, u16) {
        let base = buffers.entries.address.as_ptr().cast::<BufRingEntry>();
        assert!(index <= usize::from(buffers.mask));
        // SAFETY: `index` is inside the ring, which stays mapped while `buffers` lives.
        let slot = unsafe { &*base.add(index) };
        (slot.addr(), slot.len(), slot.bid())
    }

    fn published_tail(buffers: &BufferRing) -> u16 {
        let base = buffers.entries.address.as_ptr().cast::<BufRingEntry>();
        // SAFETY: the tail lives in slot 0, inside the ring.
        unsafe { AtomicU16::from_ptr(BufRingEntry::tail(base).cast_mut()).load(Ordering::Acquire) }
    }

    fn address_of(buffers: &BufferRing, id: u16) -> u64 {
        buffers.memory.address.as_ptr() as u64 + u64::from(id) * buffers.buffer_bytes as u64
    }

    #[test]
    fn the_size_limit_is_a_gibibyte_of_buffers() {
        assert!(fits(32768, 32768)); // exactly 1 GiB
        assert!(!fits(32768, 32769));
        assert!(fits(1024, 16384));
        assert!(!fits(2048, 1 << 20));
    }

    #[test]
    fn registering_puts_every_buffer_in_the_ring_in_order() {
        let Some(ring) = test_ring(8) else { return };
        let buffers = BufferRing::register(&ring, 3, 512).expect("Linux 5.19 or later");
        assert_eq!(buffers.mask, 3, "3 buffers need a ring of 4 slots");
        assert_eq!(buffers.tail, 3);
        assert_eq!(published_tail(&buffers), 3);
        for id in 0..3 {
            assert_eq!(
                slot(&buffers, usize::from(id)),
                (address_of(&buffers, id), 512, id)
            );
        }
        assert_eq!(buffers.memory.bytes, 3 * 512);
    }

    #[test]
    fn a_recycled_buffer_goes_in_at_the_tail_and_the_tail_wraps() {
        let Some(ring) = test_ring(8) else { return };
        let mut buffers = BufferRing::register(&ring, 4, 1024).expect("Linux 5.19 or later");
        assert_eq!(buffers.mask, 3);
        buffers.recycle(2); // slot 4 & 3 = 0
        assert_eq!(slot(&buffers, 0), (address_of(&buffers, 2), 1024, 2));
        assert_eq!(published_tail(&buffers), 5);

        buffers.tail = u16::MAX; // the tail counts on past the ring's size, wrapping at 2^16
        buffers.recycle(1);
        assert_eq!(slot(&buffers, 3), (address_of(&buffers, 1), 1024, 1));
        assert_eq!((buffers.tail, published_tail(&buffers)), (0, 0));
    }

    #[test]
    fn bytes_are_read_from_the_buffer_the_cqe_names() {
        let Some(ring) = test_ring(8) else { return };
        let buffers = BufferRing::register(&ring, 4, 512).expect("Linux 5.19 or later");
        // SAFETY: buffer 2 lies inside `memory`, and no kernel request uses it.
        unsafe {
            let at = buffers.memory.address.as_ptr().add(2 * 512);
            ptr::copy_nonoverlapping(b"abc".as_ptr(), at, 3);
        }
        assert_eq!(buffers.bytes(2, 3), b"abc");
        assert_eq!(
            buffers.bytes(1, 3),
            [0, 0, 0],
            "mmap's memory starts zeroed"
        );
        assert_eq!(buffers.bytes(3, 512).len(), 512);
    }

    #[test]
    fn no_buffer_holds_more_than_its_size() {
        let Some(ring) = test_ring(8) else { return };
        let buffers = BufferRing::register(&ring, 2, 512).expect("Linux 5.19 or later");
        let past_the_end =
            std::panic::catch_unwind(AssertUnwindSafe(|| buffers.bytes(0, 513).len()));
        assert!(past_the_end.is_err(), "513 bytes of a 512-byte buffer");
    }
}
