package io.contactsolver.cli;

import io.contactsolver.ContactSolver;
import io.contactsolver.DeviceInfo;
import io.contactsolver.app.ExitCode;
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
        List<DeviceInfo> devices;
        try {
            devices = ContactSolver.devices();
        } catch (IllegalStateException e) {
            out.println("no OpenCL devices: " + e.getMessage());
            return ExitCode.FAILURE;
        }
        String platform = null;
        for (DeviceInfo device : devices) {
            if (!device.platform().equals(platform)) {
                platform = device.platform();
                out.println("platform: " + device.platform() + " (" + device.platformVersion() + ")");
            }
            out.println("  device " + device.summary());
        }
        return ExitCode.OK;
    }
}
