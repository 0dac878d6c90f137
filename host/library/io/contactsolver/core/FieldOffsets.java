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
    public static final int CONTACT_TORSION = ContactField.TORSION.ordinal();

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
    public static final int ROW_TAU = ContactRowField.TAU.ordinal();
    public static final int ROW_TWIST_AX = ContactRowField.TWIST_AX.ordinal();
    public static final int ROW_TWIST_AY = ContactRowField.TWIST_AY.ordinal();
    public static final int ROW_TWIST_AZ = ContactRowField.TWIST_AZ.ordinal();
    public static final int ROW_TWIST_BX = ContactRowField.TWIST_BX.ordinal();
    public static final int ROW_TWIST_BY = ContactRowField.TWIST_BY.ordinal();
    public static final int ROW_TWIST_BZ = ContactRowField.TWIST_BZ.ordinal();
    public static final int ROW_KTW = ContactRowField.KTW.ordinal();
    public static final int ROW_WN_0 = ContactRowField.WN_0.ordinal();

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
    public static final int ACC_TW = AccumulatedImpulse.TW.ordinal();

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

    // MAN: ManifoldField
    public static final int MAN_NX = ManifoldField.NX.ordinal();
    public static final int MAN_NY = ManifoldField.NY.ordinal();
    public static final int MAN_NZ = ManifoldField.NZ.ordinal();
    public static final int MAN_T1X = ManifoldField.T1X.ordinal();
    public static final int MAN_T1Y = ManifoldField.T1Y.ordinal();
    public static final int MAN_T1Z = ManifoldField.T1Z.ordinal();
    public static final int MAN_T2X = ManifoldField.T2X.ordinal();
    public static final int MAN_T2Y = ManifoldField.T2Y.ordinal();
    public static final int MAN_T2Z = ManifoldField.T2Z.ordinal();
    public static final int MAN_INV_MASS_A = ManifoldField.INV_MASS_A.ordinal();
    public static final int MAN_INV_MASS_B = ManifoldField.INV_MASS_B.ordinal();
    public static final int MAN_CXT1_AX = ManifoldField.CXT1_AX.ordinal();
    public static final int MAN_CXT1_AY = ManifoldField.CXT1_AY.ordinal();
    public static final int MAN_CXT1_AZ = ManifoldField.CXT1_AZ.ordinal();
    public static final int MAN_CXT2_AX = ManifoldField.CXT2_AX.ordinal();
    public static final int MAN_CXT2_AY = ManifoldField.CXT2_AY.ordinal();
    public static final int MAN_CXT2_AZ = ManifoldField.CXT2_AZ.ordinal();
    public static final int MAN_CXT1_BX = ManifoldField.CXT1_BX.ordinal();
    public static final int MAN_CXT1_BY = ManifoldField.CXT1_BY.ordinal();
    public static final int MAN_CXT1_BZ = ManifoldField.CXT1_BZ.ordinal();
    public static final int MAN_CXT2_BX = ManifoldField.CXT2_BX.ordinal();
    public static final int MAN_CXT2_BY = ManifoldField.CXT2_BY.ordinal();
    public static final int MAN_CXT2_BZ = ManifoldField.CXT2_BZ.ordinal();
    public static final int MAN_DIRT1_AX = ManifoldField.DIRT1_AX.ordinal();
    public static final int MAN_DIRT1_AY = ManifoldField.DIRT1_AY.ordinal();
    public static final int MAN_DIRT1_AZ = ManifoldField.DIRT1_AZ.ordinal();
    public static final int MAN_DIRT2_AX = ManifoldField.DIRT2_AX.ordinal();
    public static final int MAN_DIRT2_AY = ManifoldField.DIRT2_AY.ordinal();
    public static final int MAN_DIRT2_AZ = ManifoldField.DIRT2_AZ.ordinal();
    public static final int MAN_DIRT1_BX = ManifoldField.DIRT1_BX.ordinal();
    public static final int MAN_DIRT1_BY = ManifoldField.DIRT1_BY.ordinal();
    public static final int MAN_DIRT1_BZ = ManifoldField.DIRT1_BZ.ordinal();
    public static final int MAN_DIRT2_BX = ManifoldField.DIRT2_BX.ordinal();
    public static final int MAN_DIRT2_BY = ManifoldField.DIRT2_BY.ordinal();
    public static final int MAN_DIRT2_BZ = ManifoldField.DIRT2_BZ.ordinal();
    public static final int MAN_TM11 = ManifoldField.TM11.ordinal();
    public static final int MAN_TM12 = ManifoldField.TM12.ordinal();
    public static final int MAN_TM22 = ManifoldField.TM22.ordinal();
    public static final int MAN_TWIST_AX = ManifoldField.TWIST_AX.ordinal();
    public static final int MAN_TWIST_AY = ManifoldField.TWIST_AY.ordinal();
    public static final int MAN_TWIST_AZ = ManifoldField.TWIST_AZ.ordinal();
    public static final int MAN_TWIST_BX = ManifoldField.TWIST_BX.ordinal();
    public static final int MAN_TWIST_BY = ManifoldField.TWIST_BY.ordinal();
    public static final int MAN_TWIST_BZ = ManifoldField.TWIST_BZ.ordinal();
    public static final int MAN_TWIST_MASS = ManifoldField.TWIST_MASS.ordinal();
    public static final int MAN_TWIST_F1 = ManifoldField.TWIST_F1.ordinal();
    public static final int MAN_TWIST_F2 = ManifoldField.TWIST_F2.ordinal();
    public static final int MAN_ROLL1_AX = ManifoldField.ROLL1_AX.ordinal();
    public static final int MAN_ROLL1_AY = ManifoldField.ROLL1_AY.ordinal();
    public static final int MAN_ROLL1_AZ = ManifoldField.ROLL1_AZ.ordinal();
    public static final int MAN_ROLL2_AX = ManifoldField.ROLL2_AX.ordinal();
    public static final int MAN_ROLL2_AY = ManifoldField.ROLL2_AY.ordinal();
    public static final int MAN_ROLL2_AZ = ManifoldField.ROLL2_AZ.ordinal();
    public static final int MAN_ROLL1_BX = ManifoldField.ROLL1_BX.ordinal();
    public static final int MAN_ROLL1_BY = ManifoldField.ROLL1_BY.ordinal();
    public static final int MAN_ROLL1_BZ = ManifoldField.ROLL1_BZ.ordinal();
    public static final int MAN_ROLL2_BX = ManifoldField.ROLL2_BX.ordinal();
    public static final int MAN_ROLL2_BY = ManifoldField.ROLL2_BY.ordinal();
    public static final int MAN_ROLL2_BZ = ManifoldField.ROLL2_BZ.ordinal();
    public static final int MAN_RM11 = ManifoldField.RM11.ordinal();
    public static final int MAN_RM12 = ManifoldField.RM12.ordinal();
    public static final int MAN_RM22 = ManifoldField.RM22.ordinal();
    public static final int MAN_MU = ManifoldField.MU.ordinal();
    public static final int MAN_RHO = ManifoldField.RHO.ordinal();
    public static final int MAN_TORSION = ManifoldField.TORSION.ordinal();
    public static final int MAN_VT1 = ManifoldField.VT1.ordinal();
    public static final int MAN_VT2 = ManifoldField.VT2.ordinal();
    public static final int MAN_VTWIST = ManifoldField.VTWIST.ordinal();
    public static final int MAN_VR1 = ManifoldField.VR1.ordinal();
    public static final int MAN_VR2 = ManifoldField.VR2.ordinal();
    public static final int MAN_BIAS_RATE = ManifoldField.BIAS_RATE.ordinal();
    public static final int MAN_MASS_SCALE = ManifoldField.MASS_SCALE.ordinal();
    public static final int MAN_IMPULSE_SCALE = ManifoldField.IMPULSE_SCALE.ordinal();

    // POINT: PointField
    public static final int POINT_RAX = PointField.RAX.ordinal();
    public static final int POINT_RAY = PointField.RAY.ordinal();
    public static final int POINT_RAZ = PointField.RAZ.ordinal();
    public static final int POINT_RBX = PointField.RBX.ordinal();
    public static final int POINT_RBY = PointField.RBY.ordinal();
    public static final int POINT_RBZ = PointField.RBZ.ordinal();
    public static final int POINT_RXN_AX = PointField.RXN_AX.ordinal();
    public static final int POINT_RXN_AY = PointField.RXN_AY.ordinal();
    public static final int POINT_RXN_AZ = PointField.RXN_AZ.ordinal();
    public static final int POINT_RXN_BX = PointField.RXN_BX.ordinal();
    public static final int POINT_RXN_BY = PointField.RXN_BY.ordinal();
    public static final int POINT_RXN_BZ = PointField.RXN_BZ.ordinal();
    public static final int POINT_DIR_AX = PointField.DIR_AX.ordinal();
    public static final int POINT_DIR_AY = PointField.DIR_AY.ordinal();
    public static final int POINT_DIR_AZ = PointField.DIR_AZ.ordinal();
    public static final int POINT_DIR_BX = PointField.DIR_BX.ordinal();
    public static final int POINT_DIR_BY = PointField.DIR_BY.ordinal();
    public static final int POINT_DIR_BZ = PointField.DIR_BZ.ordinal();
    public static final int POINT_S0 = PointField.S0.ordinal();
    public static final int POINT_NORMAL_MASS = PointField.NORMAL_MASS.ordinal();
    public static final int POINT_LEVER = PointField.LEVER.ordinal();
    public static final int POINT_VN0 = PointField.VN0.ordinal();
    public static final int POINT_TARGET = PointField.TARGET.ordinal();
    public static final int POINT_COUPLING_1 = PointField.COUPLING_1.ordinal();
    public static final int POINT_COUPLING_2 = PointField.COUPLING_2.ordinal();
    public static final int POINT_COUPLING_3 = PointField.COUPLING_3.ordinal();

    // MACC: ManifoldImpulse
    public static final int MACC_F1 = ManifoldImpulse.F1.ordinal();
    public static final int MACC_F2 = ManifoldImpulse.F2.ordinal();
    public static final int MACC_TWIST = ManifoldImpulse.TWIST.ordinal();
    public static final int MACC_R1 = ManifoldImpulse.R1.ordinal();
    public static final int MACC_R2 = ManifoldImpulse.R2.ordinal();

    // WARM: WarmStartField
    public static final int WARM_VAX = WarmStartField.VAX.ordinal();
    public static final int WARM_VAY = WarmStartField.VAY.ordinal();
    public static final int WARM_VAZ = WarmStartField.VAZ.ordinal();
    public static final int WARM_WAX = WarmStartField.WAX.ordinal();
    public static final int WARM_WAY = WarmStartField.WAY.ordinal();
    public static final int WARM_WAZ = WarmStartField.WAZ.ordinal();
    public static final int WARM_VBX = WarmStartField.VBX.ordinal();
    public static final int WARM_VBY = WarmStartField.VBY.ordinal();
    public static final int WARM_VBZ = WarmStartField.VBZ.ordinal();
    public static final int WARM_WBX = WarmStartField.WBX.ordinal();
    public static final int WARM_WBY = WarmStartField.WBY.ordinal();
    public static final int WARM_WBZ = WarmStartField.WBZ.ordinal();

    // MVEC: ManifoldVectorField
    public static final int MVEC_FX = ManifoldVectorField.FX.ordinal();
    public static final int MVEC_FY = ManifoldVectorField.FY.ordinal();
    public static final int MVEC_FZ = ManifoldVectorField.FZ.ordinal();
    public static final int MVEC_AX = ManifoldVectorField.AX.ordinal();
    public static final int MVEC_AY = ManifoldVectorField.AY.ordinal();
    public static final int MVEC_AZ = ManifoldVectorField.AZ.ordinal();

    // GEOM: GeometryField
    public static final int GEOM_RAX = GeometryField.RAX.ordinal();
    public static final int GEOM_RAY = GeometryField.RAY.ordinal();
    public static final int GEOM_RAZ = GeometryField.RAZ.ordinal();
    public static final int GEOM_RBX = GeometryField.RBX.ordinal();
    public static final int GEOM_RBY = GeometryField.RBY.ordinal();
    public static final int GEOM_RBZ = GeometryField.RBZ.ordinal();
    public static final int GEOM_NX = GeometryField.NX.ordinal();
    public static final int GEOM_NY = GeometryField.NY.ordinal();
    public static final int GEOM_NZ = GeometryField.NZ.ordinal();
    public static final int GEOM_S = GeometryField.S.ordinal();

    // CAPTURE: CaptureField
    public static final int CAPTURE_RAX = CaptureField.RAX.ordinal();
    public static final int CAPTURE_RAY = CaptureField.RAY.ordinal();
    public static final int CAPTURE_RAZ = CaptureField.RAZ.ordinal();
    public static final int CAPTURE_RBX = CaptureField.RBX.ordinal();
    public static final int CAPTURE_RBY = CaptureField.RBY.ordinal();
    public static final int CAPTURE_RBZ = CaptureField.RBZ.ordinal();
    public static final int CAPTURE_NX = CaptureField.NX.ordinal();
    public static final int CAPTURE_NY = CaptureField.NY.ordinal();
    public static final int CAPTURE_NZ = CaptureField.NZ.ordinal();
    public static final int CAPTURE_S = CaptureField.S.ordinal();
    public static final int CAPTURE_QAW = CaptureField.QAW.ordinal();
    public static final int CAPTURE_QAX = CaptureField.QAX.ordinal();
    public static final int CAPTURE_QAY = CaptureField.QAY.ordinal();
    public static final int CAPTURE_QAZ = CaptureField.QAZ.ordinal();
    public static final int CAPTURE_QBW = CaptureField.QBW.ordinal();
    public static final int CAPTURE_QBX = CaptureField.QBX.ordinal();
    public static final int CAPTURE_QBY = CaptureField.QBY.ordinal();
    public static final int CAPTURE_QBZ = CaptureField.QBZ.ordinal();

    // TALLY: ReportTally
    public static final int TALLY_TOTAL = ReportTally.TOTAL.ordinal();
    public static final int TALLY_SPREAD = ReportTally.SPREAD.ordinal();
    public static final int TALLY_SAME = ReportTally.SAME.ordinal();

    // GROUP: MagnitudeGroup
    public static final int GROUP_CONTACT_POINT = MagnitudeGroup.CONTACT_POINT.ordinal();
    public static final int GROUP_POSITION = MagnitudeGroup.POSITION.ordinal();
    public static final int GROUP_INVERSE_MASS = MagnitudeGroup.INVERSE_MASS.ordinal();
    public static final int GROUP_INVERSE_INERTIA = MagnitudeGroup.INVERSE_INERTIA.ordinal();
    public static final int GROUP_LINEAR_VELOCITY = MagnitudeGroup.LINEAR_VELOCITY.ordinal();
    public static final int GROUP_ANGULAR_VELOCITY = MagnitudeGroup.ANGULAR_VELOCITY.ordinal();
}
