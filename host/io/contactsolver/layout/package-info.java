/**
 * The data layouts of the API, one definition each: the fields of bodies, contacts and results in
 * their storage order, and the phases a solve is timed in. A leaf package: it depends on nothing
 * of the project, and the API, the backends and the kernels' build options all read the layout
 * from here.
 */
package io.contactsolver.layout;
