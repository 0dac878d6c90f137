package io.contactsolver;

/** Where a solve runs. */
public enum Backend {
    /** An OpenCL GPU if there is one, else any OpenCL device, else the CPU. */
    AUTO,
    /** The multi-threaded Java implementation; always available. */
    CPU,
    /** An OpenCL device; creating a solver fails if none can be used. */
    OPENCL
}
