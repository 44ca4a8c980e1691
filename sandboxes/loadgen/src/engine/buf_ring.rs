//! A provided-buffer ring: the buffers the kernel picks from when a multishot receive has
//! bytes to deliver, so no receive needs a buffer of its own while it waits.
//!
//! One anonymous mapping holds the ring (`entries` descriptors of 16 bytes, page-aligned as
//! the kernel requires) followed by the buffers. The kernel takes descriptors from the head;
//! each completion names the buffer it filled (`IORING_CQE_F_BUFFER`, the id in the upper
//! bits of its flags). Once its bytes are checked, the buffer goes back at the tail, and the
//! new tail is published with a release store so the kernel sees the descriptor first.
//!
//! Relies on: `IORING_REGISTER_PBUF_RING` (Linux 5.19); the ring's tail is the `resv` field
//! of its first descriptor; a ring with no buffer left ends a multishot receive with
//! `ENOBUFS` (the bytes stay in the socket until a receive is armed again).

use std::io;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU16, Ordering};

use io_uring::Submitter;
use io_uring::types::BufRingEntry;

/// The provided buffers of one ring (one buffer group).
pub struct BufRing {
    /// The mapping: descriptors, then buffers.
    base: NonNull<u8>,
    mapped: usize,
    entries: u16,
    /// Where the buffers start in the mapping.
    buffers_at: usize,
    buffer_bytes: usize,
    /// The tail as this side has written it (the kernel keeps the head).
    tail: u16,
}

// SAFETY: the mapping is owned by the BufRing alone; moving it to another thread moves the
// only handle to it.
unsafe impl Send for BufRing {}

impl BufRing {
    /// Maps `entries` buffers (a power of two, at most 32768) of `buffer_bytes` each, all
    /// handed to the ring.
    pub fn new(entries: u16, buffer_bytes: usize) -> io::Result<BufRing> {
        assert!(entries.is_power_of_two() && entries <= 1 << 15);
        let page = page_size();
        let descriptors = usize::from(entries) * size_of::<BufRingEntry>();
        let buffers_at = descriptors.div_ceil(page) * page;
        let mapped = buffers_at + usize::from(entries) * buffer_bytes;
        // SAFETY: a fresh private anonymous mapping; the result is checked.
        let addr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if addr == libc::MAP_FAILED {
            let e = io::Error::last_os_error();
            return Err(io::Error::new(
                e.kind(),
                format!("mmap of {mapped} bytes failed: {e}"),
            ));
        }
        let mut ring = BufRing {
            base: NonNull::new(addr.cast()).expect("mmap returned a valid address"),
            mapped,
            entries,
            buffers_at,
            buffer_bytes,
            tail: 0,
        };
        for id in 0..entries {
            ring.recycle(id);
        }
        Ok(ring)
    }

    /// Registers the ring as buffer group `group` of the io_uring behind `submitter`.
    ///
    /// # Safety
    ///
    /// The ring must outlive the io_uring it is registered with (drop the io_uring first).
    pub unsafe fn register(&self, submitter: &Submitter<'_>, group: u16) -> io::Result<()> {
        let addr = self.base.as_ptr() as u64;
        // SAFETY: the descriptors are mapped for `entries` entries, page-aligned, and (by the
        // caller's promise) stay mapped while the io_uring can use them.
        unsafe { submitter.register_buf_ring_with_flags(addr, self.entries, group, 0) }
    }

    /// The size of each buffer.
    pub fn buffer_bytes(&self) -> usize {
        self.buffer_bytes
    }

    /// The first `len` bytes of buffer `id`, which the kernel filled and handed over.
    #[inline]
    pub fn get(&self, id: u16, len: usize) -> &[u8] {
        assert!(id < self.entries && len <= self.buffer_bytes);
        // SAFETY: in bounds (checked above); the kernel wrote these bytes before posting the
        // completion that handed the buffer over, and does not touch it until it is recycled.
        unsafe { std::slice::from_raw_parts(self.buffer(id), len) }
    }

    /// Gives buffer `id` back to the kernel.
    #[inline]
    pub fn recycle(&mut self, id: u16) {
        let slot = usize::from(self.tail & (self.entries - 1));
        let descriptors = self.base.as_ptr().cast::<BufRingEntry>();
        // SAFETY: `slot` < entries, within the mapped descriptors; the kernel only reads
        // descriptors between its head and the published tail, which this one is not yet.
        let entry = unsafe { &mut *descriptors.add(slot) };
        entry.set_addr(self.buffer(id) as u64);
        entry.set_len(self.buffer_bytes as u32);
        entry.set_bid(id);
        self.tail = self.tail.wrapping_add(1);
        // SAFETY: the tail is the u16 `resv` field of the first descriptor, 2-aligned, and
        // shared with the kernel: written atomically, released after the descriptor.
        let tail = unsafe { &*BufRingEntry::tail(descriptors).cast::<AtomicU16>() };
        tail.store(self.tail, Ordering::Release);
    }

    fn buffer(&self, id: u16) -> *mut u8 {
        // SAFETY: within the mapping for any id < entries.
        unsafe {
            self.base
                .as_ptr()
                .add(self.buffers_at + usize::from(id) * self.buffer_bytes)
        }
    }
}

impl Drop for BufRing {
    fn drop(&mut self) {
        // SAFETY: unmaps exactly the mapping made in `new`, used by nothing else any more.
        unsafe { libc::munmap(self.base.as_ptr().cast(), self.mapped) };
    }
}

fn page_size() -> usize {
    // SAFETY: sysconf with a constant name.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(4096)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_are_laid_out_after_the_page_aligned_descriptors() {
        let ring = BufRing::new(8, 100).unwrap();
        assert_eq!(ring.buffers_at % page_size(), 0);
        assert_eq!(ring.tail, 8, "every buffer is handed to the kernel");
        let descriptors = ring.base.as_ptr().cast::<BufRingEntry>();
        for slot in 0..8u16 {
            // SAFETY: slot < entries.
            let entry = unsafe { &*descriptors.add(usize::from(slot)) };
            assert_eq!(entry.bid(), slot);
            assert_eq!(entry.len(), 100);
            assert_eq!(entry.addr(), ring.buffer(slot) as u64);
        }
        assert_eq!(ring.get(7, 100).len(), 100);
    }
}
