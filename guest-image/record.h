/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crngbench report format: the one definition shared by the guest probe
 * (writer) and the host runner (reader).
 *
 * A report is a sequence of segments on the guest's result channel (a second
 * serial port, never the console). Each segment is:
 *
 *	crngbench/1 seg=<name>			header: format name and version
 *	<type> <key>=<value> <key>=<value> ...	records, one per line
 *	end n=<records> crc=<crc32, 8 hex>	terminator
 *
 * The CRC-32 (IEEE 802.3, as zlib's crc32()) covers every byte of the
 * segment from the start of its header line up to the terminator, newlines
 * included. A segment without a valid terminator is truncated or garbled and
 * none of its records are used.
 *
 * Keys are [a-z0-9_]+. Values are non-empty and percent-encoded: any byte
 * outside the printable ASCII range, and ' ', '%' and '=', is written as %XX.
 * Integers are decimal. Times are nanoseconds, named *_ns, on the clock the
 * record type says; host and guest clocks are never mixed in one record.
 *
 * Record types and their required keys are listed in CRB_TYPES below; extra
 * keys are allowed, unknown types and missing keys are errors. Any change
 * that a version-1 reader would misread must bump CRB_VERSION.
 *
 * Optional keys with a fixed form, on any record type (CRB_FORMS below):
 * the reader rejects a record whose value breaks it, as it does a
 * malformed line, so the segment is not data.
 *
 *	digest=<16 hex>		what a read returned: the first 8 bytes of
 *				BLAKE2s-256 (RFC 7693) of its bytes, as 16
 *				lowercase hex digits, written plain (no
 *				%-escape); on read records and the
 *				game-seeded event, only when bytes > 0
 *				(probes before it wrote none)
 *	status=unavailable	on a read record: the read kind does not exist
 *				in this guest (getrandom-vdso without a vDSO
 *				getrandom: kernels before 6.11, machines but
 *				x86_64); nothing was read (bytes=0, dur_ns=0,
 *				errno=ENOSYS). Not a failure: the boot is not
 *				broken by it. why=<text> says what was missing.
 */
#ifndef CRNGBENCH_RECORD_H
#define CRNGBENCH_RECORD_H

#include <stddef.h>
#include <stdint.h>

#define CRB_MAGIC "crngbench"
#define CRB_VERSION 1

#define CRB_MAX_LINE 4096
#define CRB_MAX_FIELDS 16
#define CRB_MAX_KEY 32
#define CRB_MAX_VALUE 2048 /* decoded */

/*
 * X(type, required keys as one space-separated string, what it means).
 * Guest times: *_ns on CLOCK_BOOTTIME unless the key says _mono_ns.
 */
#define CRB_TYPES(X)                                                            \
	X(meta, "key value", "a fact about the boot: kernel release, cmdline")  \
	X(probe, "start_ns start_mono_ns exec_ns reads_ns overhead_ns",         \
	  "PID 1 probe: entry, exec of systemd, time in reads, own overhead")   \
	X(reading, "iface start_ns", "an early read is about to start")         \
	X(read, "iface start_ns dur_ns bytes errno",                            \
	  "an early read finished (errno 0 on success)")                        \
	X(ready, "src t_ns",                                                    \
	  "CRNG ready: src=poll (watcher, boottime) or src=kmsg (printk time)") \
	X(trace, "comm pid func start_ns dur_ns",                               \
	  "a traced kernel read (ftrace function_graph), trace clock")          \
	X(event, "name t_ns", "a named moment, e.g. game-seeded")               \
	X(systemd, "userspace_ns finish_ns",                                    \
	  "systemd's own timestamps: userspace start, boot finished")           \
	X(fail, "what errno", "the guest gave up; the boot is broken")          \
	X(waiter, "i end_ns dur_ns errno",                                      \
	  "waiter i's getrandom(0) returned (crngbench_waiters)")

/*
 * The guest's settings: words on the kernel command line, which the kernel
 * hands PID 1 as environment variables (see probe.c). The runner writes
 * them, the probe reads them; both use these names.
 */
#define CRB_SET_OUT "crngbench_out" /* result channel device */
#define CRB_SET_READS "crngbench_reads" /* early reads, ','-separated */
#define CRB_SET_BYTES "crngbench_bytes" /* bytes per read */
#define CRB_SET_READ_TIMEOUT "crngbench_read_timeout" /* seconds, 0: none */
/* seconds from boot the report waits for systemd; absent: read_timeout */
#define CRB_SET_READY_TIMEOUT "crngbench_ready_timeout"
#define CRB_SET_SEED "crngbench_seed" /* saved seed, hex */
/* "probe-only": no systemd; PID 1 does buildroot's seed dance and reports */
#define CRB_SET_INIT "crngbench_init"
#define CRB_INIT_PROBE_ONLY "probe-only"
/*
 * Who makes the early reads: "pid1" (absent: PID 1, before it execs
 * systemd) or "child" (a child of PID 1, which execs systemd at once; the
 * child's records reach the host in the report segment, see probe.c).
 */
#define CRB_SET_EARLY "crngbench_early"
#define CRB_EARLY_CHILD "child"
/*
 * How many extra processes PID 1 forks just before its early reads, each
 * blocked in getrandom(buf, 16, 0) until the CRNG is ready: "0" (absent)
 * to CRB_MAX_WAITERS, one decimal digit. Each that returns appends a
 * waiter record (i from 0 to N-1) that the report carries (probe.c).
 */
#define CRB_SET_WAITERS "crngbench_waiters"
#define CRB_MAX_WAITERS 7
/* the bytes each waiter asks getrandom(0) for, and its record says it got */
#define CRB_WAITER_BYTES 16
/* N of a crngbench_waiters value (and of the matrix's waiters axis), or
 * -1: anything but one digit from 0 to CRB_MAX_WAITERS. */
int crb_waiters(const char *v);

/*
 * X(name, what) for the early reads the probe can make: the interfaces a
 * program may use for randomness before the CRNG is ready. The probe
 * implements each; the matrix accepts exactly these names.
 */
#define CRB_READS(X)                                                 \
	X("urandom", "read(2) of /dev/urandom")                      \
	X("urandom-nb", "read(2) of /dev/urandom opened O_NONBLOCK") \
	X("random", "read(2) of /dev/random")                        \
	X("getrandom", "getrandom(2), flags 0")                      \
	X("getrandom-nb", "getrandom(2), GRND_NONBLOCK")             \
	X("getrandom-insecure", "getrandom(2), GRND_INSECURE")       \
	X("getrandom-vdso", "the vDSO's getrandom, flags 0 (6.11+)")

/*
 * getrandom-vdso calls __vdso_getrandom (version LINUX_2.6, x86_64) as
 * glibc 2.41+ does, with a state mmap'd as the vDSO asks (vdso.c). Before
 * the CRNG is ready the vDSO falls back to the getrandom syscall with the
 * same flags (lib/vdso/getrandom.c), so it waits like getrandom(0). Its
 * read record adds ready_before=0|1 and ready_after=0|1: whether
 * /dev/random polled readable (the CRNG ready) just before and just after
 * the call, outside its timed part; ready_before=0 with errno=0 is a call
 * that took the syscall and waited for the CRNG. Where there is no vDSO
 * getrandom the record says status=unavailable (above).
 */
#define CRB_STATUS_UNAVAILABLE "unavailable"

/* The read kinds' names, in CRB_READS order, and how many there are. */
extern const char *const crb_read_names[];
extern const size_t crb_nreads;
/* "urandom, urandom-nb, ..." for messages. */
const char *crb_read_list(void);

enum crb_type {
#define CRB_ENUM(t, keys, doc) CRB_##t,
	CRB_TYPES(CRB_ENUM)
#undef CRB_ENUM
		CRB_NTYPES
};

struct crb_field {
	char key[CRB_MAX_KEY];
	char value[CRB_MAX_VALUE];
};

struct crb_record {
	enum crb_type type;
	int nfields;
	struct crb_field field[CRB_MAX_FIELDS];
};

const char *crb_type_name(enum crb_type t);

/*
 * X(key, check, what it accepts): the keys with a fixed form (above); the
 * check gets the value as written in the line (len bytes, not
 * NUL-terminated, before %-decoding) and returns 1 when it is valid.
 */
#define CRB_DIGEST_LEN 16
#define CRB_FORMS(X)                                                     \
	X(digest, crb_digest_ok,                                         \
	  "16 lowercase hex digits (the first 8 bytes of BLAKE2s-256), " \
	  "written plain")                                               \
	X(status, crb_status_ok, "'" CRB_STATUS_UNAVAILABLE "'")
int crb_digest_ok(const char *v, size_t len);
int crb_status_ok(const char *v, size_t len);

/* The value of key in r, or NULL. */
const char *crb_get(const struct crb_record *r, const char *key);
/*
 * The one integer rule of every reader: a record's value, a results
 * file's field (raw.csv, as plots/runfiles.py read_table reads it), a
 * matrix setting, run.args, seed, an option. The whole text an optional
 * '-' and 1 to 19 ASCII digits, within int64: no '+', no white space, no
 * '11.9', nothing after the digits. 0, or -1 with errno EINVAL (not such
 * a number) or ERANGE (past int64).
 */
int crb_parse_i64(const char *s, int64_t *out);
#define CRB_INT_WORDS \
	"an integer (an optional '-' and 1 to 19 digits, within 64 bits)"
/* The value of key as crb_parse_i64 reads it; 0 on success. */
int crb_get_i64(const struct crb_record *r, const char *key, int64_t *out);

/*
 * Parse one record line (without its newline). Returns 0, or -1 with a
 * message naming what was wrong in err.
 */
int crb_parse_line(const char *line, size_t len, struct crb_record *r,
		   char *err, size_t errlen);

/*
 * Parse a segment header line (without its newline) into the segment's
 * name. Returns 0, or -1 with a message in err.
 */
int crb_parse_header(const char *line, size_t len, char *name, size_t namelen,
		     char *err, size_t errlen);

/* Percent-encode src into dst (always NUL-terminated); returns dst. */
char *crb_escape(char *dst, size_t dstlen, const char *src);

uint32_t crb_crc32(uint32_t crc, const void *buf, size_t len);

/*
 * Writer: one segment at a time onto a file descriptor. Lines are buffered
 * and go out in one write() at crb_flush(), crb_end() or when the buffer is
 * full: on the guest's serial channel every write() is a trip through the
 * tty layer, and PID 1's own time is what the probe must keep small.
 */
#define CRB_WRITE_BUF 4096

struct crb_writer {
	int fd;
	unsigned int n;
	uint32_t crc;
	int error; /* first errno seen; later writes are skipped */
	size_t len; /* bytes buffered, not yet written */
	char buf[CRB_WRITE_BUF];
};

int crb_begin(struct crb_writer *w, int fd, const char *segment);
/* Write out what is buffered: before anything that may block or end. */
int crb_flush(struct crb_writer *w);
/*
 * Emit one record: type, then printf-style "key=value key=value" text.
 * Free text must go through crb_escape(). The line is parsed back before it
 * is written, so the writer cannot produce a record the reader rejects.
 */
int crb_emit(struct crb_writer *w, enum crb_type type, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Terminate the segment and flush it. */
int crb_end(struct crb_writer *w);

/* Reader: split a byte stream into segments and records. */
struct crb_segment_info {
	char name[CRB_MAX_KEY];
	int complete; /* terminator present, count and CRC match */
	unsigned int nrecords;
	char error[256]; /* why it is not complete */
	/*
	 * The last well-formed record line seen, kept only to say where an
	 * incomplete segment stopped (e.g. "reading iface=urandom ..."); it is
	 * a diagnostic, never data.
	 */
	char last[256];
};

/*
 * Calls on_record for each record of each *complete* segment, in order, and
 * on_segment once per segment (complete or not). Records of an incomplete
 * segment are never passed on. Returns the number of complete segments, or
 * -1 if a callback returned non-zero.
 */
int crb_read_stream(const char *buf, size_t len,
		    int (*on_record)(void *ctx, const char *segment,
				     const struct crb_record *r),
		    int (*on_segment)(void *ctx,
				      const struct crb_segment_info *s),
		    void *ctx);

#endif /* CRNGBENCH_RECORD_H */
