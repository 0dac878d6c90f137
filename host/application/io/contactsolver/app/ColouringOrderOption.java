package io.contactsolver.app;

import io.contactsolver.ColouringOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The soft step's colouring order as the bench and the demo take it: {@code --colouring-order contact|hashed}. */
public final class ColouringOrderOption {
    private ColouringOrderOption() {
    }

    /** The order {@code label} names (an order's name in lower case), or null where it names none. */
    public static ColouringOrder parse(String label) {
        for (ColouringOrder order : ColouringOrder.values()) {
            if (label(order).equals(label)) {
                return order;
            }
        }
        return null;
    }

    /** The one-line refusal of a label that names no order. */
    public static String refusal(String label) {
        List<String> labels = new ArrayList<>();
        for (ColouringOrder order : ColouringOrder.values()) {
            labels.add(label(order));
        }
        return "--colouring-order must be " + String.join(" or ", labels) + ", got '" + label + "'";
    }

    private static String label(ColouringOrder order) {
        return order.name().toLowerCase(Locale.ROOT);
    }
}
