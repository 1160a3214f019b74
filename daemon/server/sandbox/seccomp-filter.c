/*
 * Writes the kits' seccomp filter, as a compiled BPF program, to the file named by argv[1] (bubblewrap reads it
 * from an fd: `bwrap --seccomp FD`). Built with libseccomp at the daemon's first start (seccomp.ts).
 *
 * In the spirit of Collabora Online's common/Seccomp.cpp: everything is allowed except system calls a document
 * converter never needs and that widen an attack on the kernel or on other processes: tracing, mounting,
 * namespaces, kernel modules and keyrings, BPF, perf, io_uring, clock and host settings. Unlike Collabora the
 * calls fail with EPERM instead of killing the process (Node and LibreOffice probe some of them, e.g. io_uring,
 * and fall back), and kill/tkill/listen/accept/sendfile/splice stay allowed: Node uses them for its own IPC,
 * child processes and file copies, and the net namespace already leaves nothing to reach.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <unistd.h>

static const char *const denied[] = {
  "ptrace", "process_vm_readv", "process_vm_writev", "personality", "modify_ldt", "uselib", "vhangup",
  "pivot_root", "chroot", "mount", "umount2", "move_mount", "open_tree", "fsopen", "fsconfig", "fsmount", "fspick",
  "mount_setattr", "swapon", "swapoff", "reboot", "sethostname", "setdomainname", "acct", "quotactl",
  "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
  "add_key", "request_key", "keyctl", "unshare", "setns", "bpf", "perf_event_open", "userfaultfd",
  "fanotify_init", "fanotify_mark", "open_by_handle_at", "name_to_handle_at", "lookup_dcookie",
  "io_uring_setup", "io_uring_enter", "io_uring_register", "mbind", "set_mempolicy", "migrate_pages",
  "move_pages", "capset", "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "syslog",
  "iopl", "ioperm", "ustat", "sysfs", "_sysctl", "nfsservctl", "vm86", "vm86old", "seccomp",
};

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTPUT.bpf\n", argv[0]);
    return 2;
  }
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return 1;
  for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) {
    int nr = seccomp_syscall_resolve_name(denied[i]);
    if (nr == __NR_SCMP_ERROR) continue; /* not on this architecture */
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0) < 0) {
      fprintf(stderr, "cannot deny %s\n", denied[i]);
      return 1;
    }
  }
  /* No new user namespaces through clone() either; clone3 passes its flags in memory the filter cannot read,
     so it answers ENOSYS and glibc falls back to clone(). */
  if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER, CLONE_NEWUSER)) < 0) return 1;
  if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0) < 0) return 1;
  int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    perror(argv[1]);
    return 1;
  }
  if (seccomp_export_bpf(ctx, fd) < 0) return 1;
  close(fd);
  seccomp_release(ctx);
  return 0;
}
