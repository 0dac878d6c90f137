package io.contactsolver;

/** Where a solve runs. */
public enum Backend {
    /**
     * The fastest path: an OpenCL GPU, else an OpenCL accelerator, else the CPU. An OpenCL CPU
     * device (such as PoCL) is used only when named by a device selector: it runs on the same cores
     * as the CPU backend and is slower there, with the same results.
     */
    AUTO,
    /** The multi-threaded Java implementation; always available. */
    CPU,
    /** An OpenCL device; creating a solver fails if none can be used. */
    OPENCL
}
