package io.contactsolver.core;

import io.contactsolver.layout.BodyField;
import io.contactsolver.layout.ContactBody;
import io.contactsolver.layout.ContactField;
import io.contactsolver.layout.DeltaField;
import io.contactsolver.layout.ImpulseField;

/**
 * Every field's offset as an int constant, named as the kernels name it: field {@code F} of
 * {@link Layout} {@code L} is {@code L_F}, the same name and value as the build option
 * {@code -DL_F}. Each is derived from its enum's ordinal, never typed as a number, and
 * {@code KernelLayoutTest} checks that this class holds exactly the build options' fields.
 *
 * <p>For the CPU backend's hot loops: {@code import static io.contactsolver.core.FieldOffsets.*}.
 * A {@code static final int} is a constant C2 folds into the code it compiles, and reading one is
 * three bytes of bytecode where {@code NX.ordinal()} is six, which keeps the row steps under C2's
 * inlining limit ({@code FreqInlineSize}, 325 bytes).
 */
public final class FieldOffsets {
    // BODY: BodyField
    public static final int BODY_X = BodyField.X.ordinal();
    public static final int BODY_Y = BodyField.Y.ordinal();
    public static final int BODY_Z = BodyField.Z.ordinal();
    public static final int BODY_QW = BodyField.QW.ordinal();
    public static final int BODY_QX = BodyField.QX.ordinal();
    public static final int BODY_QY = BodyField.QY.ordinal();
    public static final int BODY_QZ = BodyField.QZ.ordinal();
    public static final int BODY_VX = BodyField.VX.ordinal();
    public static final int BODY_VY = BodyField.VY.ordinal();
    public static final int BODY_VZ = BodyField.VZ.ordinal();
    public static final int BODY_WX = BodyField.WX.ordinal();
    public static final int BODY_WY = BodyField.WY.ordinal();
    public static final int BODY_WZ = BodyField.WZ.ordinal();
    public static final int BODY_INV_MASS = BodyField.INV_MASS.ordinal();
    public static final int BODY_INV_IXX = BodyField.INV_IXX.ordinal();
    public static final int BODY_INV_IYY = BodyField.INV_IYY.ordinal();
    public static final int BODY_INV_IZZ = BodyField.INV_IZZ.ordinal();
    public static final int BODY_INV_IXY = BodyField.INV_IXY.ordinal();
    public static final int BODY_INV_IXZ = BodyField.INV_IXZ.ordinal();
    public static final int BODY_INV_IYZ = BodyField.INV_IYZ.ordinal();

    // CONTACT: ContactField
    public static final int CONTACT_PX = ContactField.PX.ordinal();
    public static final int CONTACT_PY = ContactField.PY.ordinal();
    public static final int CONTACT_PZ = ContactField.PZ.ordinal();
    public static final int CONTACT_NX = ContactField.NX.ordinal();
    public static final int CONTACT_NY = ContactField.NY.ordinal();
    public static final int CONTACT_NZ = ContactField.NZ.ordinal();
    public static final int CONTACT_RESTITUTION = ContactField.RESTITUTION.ordinal();
    public static final int CONTACT_SEPARATION = ContactField.SEPARATION.ordinal();
    public static final int CONTACT_FRICTION = ContactField.FRICTION.ordinal();
    public static final int CONTACT_ROLLING_RESISTANCE = ContactField.ROLLING_RESISTANCE.ordinal();

    // LINK: ContactBody
    public static final int LINK_A = ContactBody.A.ordinal();
    public static final int LINK_B = ContactBody.B.ordinal();

    // DELTA: DeltaField
    public static final int DELTA_DVX = DeltaField.DVX.ordinal();
    public static final int DELTA_DVY = DeltaField.DVY.ordinal();
    public static final int DELTA_DVZ = DeltaField.DVZ.ordinal();
    public static final int DELTA_DWX = DeltaField.DWX.ordinal();
    public static final int DELTA_DWY = DeltaField.DWY.ordinal();
    public static final int DELTA_DWZ = DeltaField.DWZ.ordinal();

    // PREP: PreparedBodyField
    public static final int PREP_X = PreparedBodyField.X.ordinal();
    public static final int PREP_Y = PreparedBodyField.Y.ordinal();
    public static final int PREP_Z = PreparedBodyField.Z.ordinal();
    public static final int PREP_INV_MASS = PreparedBodyField.INV_MASS.ordinal();
    public static final int PREP_VX = PreparedBodyField.VX.ordinal();
    public static final int PREP_VY = PreparedBodyField.VY.ordinal();
    public static final int PREP_VZ = PreparedBodyField.VZ.ordinal();
    public static final int PREP_IXX = PreparedBodyField.IXX.ordinal();
    public static final int PREP_WX = PreparedBodyField.WX.ordinal();
    public static final int PREP_WY = PreparedBodyField.WY.ordinal();
    public static final int PREP_WZ = PreparedBodyField.WZ.ordinal();
    public static final int PREP_IYY = PreparedBodyField.IYY.ordinal();
    public static final int PREP_IZZ = PreparedBodyField.IZZ.ordinal();
    public static final int PREP_IXY = PreparedBodyField.IXY.ordinal();
    public static final int PREP_IXZ = PreparedBodyField.IXZ.ordinal();
    public static final int PREP_IYZ = PreparedBodyField.IYZ.ordinal();

    // ROW: ContactRowField
    public static final int ROW_NX = ContactRowField.NX.ordinal();
    public static final int ROW_NY = ContactRowField.NY.ordinal();
    public static final int ROW_NZ = ContactRowField.NZ.ordinal();
    public static final int ROW_RXN_AX = ContactRowField.RXN_AX.ordinal();
    public static final int ROW_RXN_AY = ContactRowField.RXN_AY.ordinal();
    public static final int ROW_RXN_AZ = ContactRowField.RXN_AZ.ordinal();
    public static final int ROW_RXN_BX = ContactRowField.RXN_BX.ordinal();
    public static final int ROW_RXN_BY = ContactRowField.RXN_BY.ordinal();
    public static final int ROW_RXN_BZ = ContactRowField.RXN_BZ.ordinal();
    public static final int ROW_DIR_AX = ContactRowField.DIR_AX.ordinal();
    public static final int ROW_DIR_AY = ContactRowField.DIR_AY.ordinal();
    public static final int ROW_DIR_AZ = ContactRowField.DIR_AZ.ordinal();
    public static final int ROW_DIR_BX = ContactRowField.DIR_BX.ordinal();
    public static final int ROW_DIR_BY = ContactRowField.DIR_BY.ordinal();
    public static final int ROW_DIR_BZ = ContactRowField.DIR_BZ.ordinal();
    public static final int ROW_INV_MASS_A = ContactRowField.INV_MASS_A.ordinal();
    public static final int ROW_INV_MASS_B = ContactRowField.INV_MASS_B.ordinal();
    public static final int ROW_K = ContactRowField.K.ordinal();
    public static final int ROW_VN0 = ContactRowField.VN0.ordinal();
    public static final int ROW_TARGET = ContactRowField.TARGET.ordinal();
    public static final int ROW_MU = ContactRowField.MU.ordinal();
    public static final int ROW_RHO = ContactRowField.RHO.ordinal();
    public static final int ROW_T1X = ContactRowField.T1X.ordinal();
    public static final int ROW_T1Y = ContactRowField.T1Y.ordinal();
    public static final int ROW_T1Z = ContactRowField.T1Z.ordinal();
    public static final int ROW_T2X = ContactRowField.T2X.ordinal();
    public static final int ROW_T2Y = ContactRowField.T2Y.ordinal();
    public static final int ROW_T2Z = ContactRowField.T2Z.ordinal();
    public static final int ROW_RXT1_AX = ContactRowField.RXT1_AX.ordinal();
    public static final int ROW_RXT1_AY = ContactRowField.RXT1_AY.ordinal();
    public static final int ROW_RXT1_AZ = ContactRowField.RXT1_AZ.ordinal();
    public static final int ROW_RXT1_BX = ContactRowField.RXT1_BX.ordinal();
    public static final int ROW_RXT1_BY = ContactRowField.RXT1_BY.ordinal();
    public static final int ROW_RXT1_BZ = ContactRowField.RXT1_BZ.ordinal();
    public static final int ROW_RXT2_AX = ContactRowField.RXT2_AX.ordinal();
    public static final int ROW_RXT2_AY = ContactRowField.RXT2_AY.ordinal();
    public static final int ROW_RXT2_AZ = ContactRowField.RXT2_AZ.ordinal();
    public static final int ROW_RXT2_BX = ContactRowField.RXT2_BX.ordinal();
    public static final int ROW_RXT2_BY = ContactRowField.RXT2_BY.ordinal();
    public static final int ROW_RXT2_BZ = ContactRowField.RXT2_BZ.ordinal();
    public static final int ROW_DIRT1_AX = ContactRowField.DIRT1_AX.ordinal();
    public static final int ROW_DIRT1_AY = ContactRowField.DIRT1_AY.ordinal();
    public static final int ROW_DIRT1_AZ = ContactRowField.DIRT1_AZ.ordinal();
    public static final int ROW_DIRT1_BX = ContactRowField.DIRT1_BX.ordinal();
    public static final int ROW_DIRT1_BY = ContactRowField.DIRT1_BY.ordinal();
    public static final int ROW_DIRT1_BZ = ContactRowField.DIRT1_BZ.ordinal();
    public static final int ROW_DIRT2_AX = ContactRowField.DIRT2_AX.ordinal();
    public static final int ROW_DIRT2_AY = ContactRowField.DIRT2_AY.ordinal();
    public static final int ROW_DIRT2_AZ = ContactRowField.DIRT2_AZ.ordinal();
    public static final int ROW_DIRT2_BX = ContactRowField.DIRT2_BX.ordinal();
    public static final int ROW_DIRT2_BY = ContactRowField.DIRT2_BY.ordinal();
    public static final int ROW_DIRT2_BZ = ContactRowField.DIRT2_BZ.ordinal();
    public static final int ROW_KT = ContactRowField.KT.ordinal();
    public static final int ROW_VT1_0 = ContactRowField.VT1_0.ordinal();
    public static final int ROW_VT2_0 = ContactRowField.VT2_0.ordinal();
    public static final int ROW_ROLL1_AX = ContactRowField.ROLL1_AX.ordinal();
    public static final int ROW_ROLL1_AY = ContactRowField.ROLL1_AY.ordinal();
    public static final int ROW_ROLL1_AZ = ContactRowField.ROLL1_AZ.ordinal();
    public static final int ROW_ROLL1_BX = ContactRowField.ROLL1_BX.ordinal();
    public static final int ROW_ROLL1_BY = ContactRowField.ROLL1_BY.ordinal();
    public static final int ROW_ROLL1_BZ = ContactRowField.ROLL1_BZ.ordinal();
    public static final int ROW_ROLL2_AX = ContactRowField.ROLL2_AX.ordinal();
    public static final int ROW_ROLL2_AY = ContactRowField.ROLL2_AY.ordinal();
    public static final int ROW_ROLL2_AZ = ContactRowField.ROLL2_AZ.ordinal();
    public static final int ROW_ROLL2_BX = ContactRowField.ROLL2_BX.ordinal();
    public static final int ROW_ROLL2_BY = ContactRowField.ROLL2_BY.ordinal();
    public static final int ROW_ROLL2_BZ = ContactRowField.ROLL2_BZ.ordinal();
    public static final int ROW_KR = ContactRowField.KR.ordinal();
    public static final int ROW_WT1_0 = ContactRowField.WT1_0.ordinal();
    public static final int ROW_WT2_0 = ContactRowField.WT2_0.ordinal();

    // STATE: StateField
    public static final int STATE_DVX = StateField.DVX.ordinal();
    public static final int STATE_DVY = StateField.DVY.ordinal();
    public static final int STATE_DVZ = StateField.DVZ.ordinal();
    public static final int STATE_PAD_V = StateField.PAD_V.ordinal();
    public static final int STATE_DWX = StateField.DWX.ordinal();
    public static final int STATE_DWY = StateField.DWY.ordinal();
    public static final int STATE_DWZ = StateField.DWZ.ordinal();
    public static final int STATE_PAD_W = StateField.PAD_W.ordinal();

    // IMPULSE: ImpulseField
    public static final int IMPULSE_J = ImpulseField.J.ordinal();
    public static final int IMPULSE_TX = ImpulseField.TX.ordinal();
    public static final int IMPULSE_TY = ImpulseField.TY.ordinal();
    public static final int IMPULSE_TZ = ImpulseField.TZ.ordinal();
    public static final int IMPULSE_RX = ImpulseField.RX.ordinal();
    public static final int IMPULSE_RY = ImpulseField.RY.ordinal();
    public static final int IMPULSE_RZ = ImpulseField.RZ.ordinal();

    // ACC: AccumulatedImpulse
    public static final int ACC_N = AccumulatedImpulse.N.ordinal();
    public static final int ACC_T1 = AccumulatedImpulse.T1.ordinal();
    public static final int ACC_T2 = AccumulatedImpulse.T2.ordinal();
    public static final int ACC_R1 = AccumulatedImpulse.R1.ordinal();
    public static final int ACC_R2 = AccumulatedImpulse.R2.ordinal();

    // WORK: FrictionWork
    public static final int WORK_PX = FrictionWork.PX.ordinal();
    public static final int WORK_PY = FrictionWork.PY.ordinal();
    public static final int WORK_PZ = FrictionWork.PZ.ordinal();
    public static final int WORK_RAX = FrictionWork.RAX.ordinal();
    public static final int WORK_RAY = FrictionWork.RAY.ordinal();
    public static final int WORK_RAZ = FrictionWork.RAZ.ordinal();
    public static final int WORK_RBX = FrictionWork.RBX.ordinal();
    public static final int WORK_RBY = FrictionWork.RBY.ordinal();
    public static final int WORK_RBZ = FrictionWork.RBZ.ordinal();
    public static final int WORK_VX = FrictionWork.VX.ordinal();
    public static final int WORK_VY = FrictionWork.VY.ordinal();
    public static final int WORK_VZ = FrictionWork.VZ.ordinal();
    public static final int WORK_A_XX = FrictionWork.A_XX.ordinal();
    public static final int WORK_A_YY = FrictionWork.A_YY.ordinal();
    public static final int WORK_A_ZZ = FrictionWork.A_ZZ.ordinal();
    public static final int WORK_A_XY = FrictionWork.A_XY.ordinal();
    public static final int WORK_A_XZ = FrictionWork.A_XZ.ordinal();
    public static final int WORK_A_YZ = FrictionWork.A_YZ.ordinal();
    public static final int WORK_B_XX = FrictionWork.B_XX.ordinal();
    public static final int WORK_B_YY = FrictionWork.B_YY.ordinal();
    public static final int WORK_B_ZZ = FrictionWork.B_ZZ.ordinal();
    public static final int WORK_B_XY = FrictionWork.B_XY.ordinal();
    public static final int WORK_B_XZ = FrictionWork.B_XZ.ordinal();
    public static final int WORK_B_YZ = FrictionWork.B_YZ.ordinal();

    // SOFT: SoftRowField
    public static final int SOFT_S0 = SoftRowField.S0.ordinal();
    public static final int SOFT_RAX = SoftRowField.RAX.ordinal();
    public static final int SOFT_RAY = SoftRowField.RAY.ordinal();
    public static final int SOFT_RAZ = SoftRowField.RAZ.ordinal();
    public static final int SOFT_RBX = SoftRowField.RBX.ordinal();
    public static final int SOFT_RBY = SoftRowField.RBY.ordinal();
    public static final int SOFT_RBZ = SoftRowField.RBZ.ordinal();

    // MOTION: MotionField
    public static final int MOTION_DX = MotionField.DX.ordinal();
    public static final int MOTION_DY = MotionField.DY.ordinal();
    public static final int MOTION_DZ = MotionField.DZ.ordinal();
    public static final int MOTION_QW = MotionField.QW.ordinal();
    public static final int MOTION_QX = MotionField.QX.ordinal();
    public static final int MOTION_QY = MotionField.QY.ordinal();
    public static final int MOTION_QZ = MotionField.QZ.ordinal();
    public static final int MOTION_M00 = MotionField.M00.ordinal();
    public static final int MOTION_M01 = MotionField.M01.ordinal();
    public static final int MOTION_M02 = MotionField.M02.ordinal();
    public static final int MOTION_M10 = MotionField.M10.ordinal();
    public static final int MOTION_M11 = MotionField.M11.ordinal();
    public static final int MOTION_M12 = MotionField.M12.ordinal();
    public static final int MOTION_M20 = MotionField.M20.ordinal();
    public static final int MOTION_M21 = MotionField.M21.ordinal();
    public static final int MOTION_M22 = MotionField.M22.ordinal();

    private FieldOffsets() {
    }
}
