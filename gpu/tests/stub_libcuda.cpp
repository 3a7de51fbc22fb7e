// A libcuda.so.1 with no driver in it: loaded ahead of the real one (LD_LIBRARY_PATH), it makes the
// CUDA runtime fail the way a broken driver does, so tests can check that flipcheck reports a
// failing GPU as an error, never as "no GPU" (a skip).
extern "C" int flipcheck_stub_libcuda_is_not_a_driver() { return 0; }
