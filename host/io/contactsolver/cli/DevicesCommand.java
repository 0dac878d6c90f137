package io.contactsolver.cli;

import io.contactsolver.core.BackendUnavailableException;
import io.contactsolver.opencl.OpenClDevices;
import io.contactsolver.opencl.OpenClDevices.Device;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code devices}: the OpenCL platforms and devices, or why there are none. */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "List OpenCL platforms and devices (index for --device), or say why there are none.")
final class DevicesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<Device> devices;
        try {
            devices = OpenClDevices.list();
        } catch (BackendUnavailableException e) {
            out.println("no OpenCL devices: " + e.getMessage());
            return Main.FAILURE;
        } catch (LinkageError e) {
            out.println("no OpenCL devices: the OpenCL library could not be loaded (" + e + ")");
            return Main.FAILURE;
        }
        Object platform = null;
        for (Device device : devices) {
            if (!device.platform().equals(platform)) {
                platform = device.platform();
                out.println("platform: " + device.platformName() + " (" + device.platformVersion() + ")");
            }
            out.println("  device " + device.summary());
        }
        return Main.OK;
    }
}
