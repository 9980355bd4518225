// SIGINT/SIGTERM/SIGHUP with their default action end a process without running atexit, so the
// last CUPTI buffers would be lost. The forwarder chains to whatever the program installed
// before us; only where the action was the default does it finish the recording (on its own
// thread: CUPTI flushing is not async-signal-safe) and then re-raise with the default action,
// so the program still dies of the same signal.
#pragma once

namespace gpuperf::inject {

using FinishFunction = void (*)(int signal);

// Installs the handlers once. `finish` runs on the forwarder thread, never in a handler. A child
// forked without exec gets the dispositions it had before back (the forwarder is the parent's).
void InstallSignalForwarder(FinishFunction finish) noexcept;

}  // namespace gpuperf::inject
