"""Imports an avatar GLB into Blender (headless), checks the rig as an animator
would see it, poses it, and exits non-zero on any failure.

    blender -b --factory-startup --python scripts/blender/check_glb.py -- avatar.glb

Checks: the Mixamo bones (fingers, HeadTop_End, toe ends) are there; with
Blender's default import each bone points at the child it aims at (bones lie
along the limbs, not all straight up); no object shares a bone's name;
the imported clips are listed; posing the arms down moves the hands' skin;
the head has ARKit's 52 shape keys, read whole from the file's sparse morph
targets (jawOpen drops the chin, eyeBlinkLeft moves the lid).
"""
import math
import sys

import bpy
import numpy

# Blender 3.4's glTF importer still uses numpy.bool, which Debian's newer numpy dropped.
numpy.bool = bool

args = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
if len(args) != 1:
    print("usage: blender -b --python check_glb.py -- FILE.glb", file=sys.stderr)
    sys.exit(2)

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=args[0])

failures = []
armatures = [o for o in bpy.data.objects if o.type == "ARMATURE"]
if len(armatures) != 1:
    failures.append(f"expected one armature, found {len(armatures)}")
    print("\n".join(failures))
    sys.exit(1)
rig = armatures[0]
bones = rig.data.bones
names = {b.name for b in bones}

required = {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "HeadTop_End", "LeftEye", "RightEye"}
for side in ("Left", "Right"):
    required |= {f"{side}{n}" for n in ("Shoulder", "Arm", "ForeArm", "Hand", "UpLeg", "Leg", "Foot", "ToeBase", "Toe_End")}
    for finger in ("Thumb", "Index", "Middle", "Ring", "Pinky"):
        required |= {f"{side}Hand{finger}{k}" for k in (1, 2, 3)}
missing = sorted(required - names)
if missing:
    failures.append(f"missing bones: {missing}")

# Bones along the limbs: each chain bone's head→tail runs towards its child's head.
chains = [
    ("LeftArm", "LeftForeArm"), ("LeftForeArm", "LeftHand"), ("RightArm", "RightForeArm"),
    ("RightForeArm", "RightHand"), ("LeftUpLeg", "LeftLeg"), ("LeftLeg", "LeftFoot"),
    ("RightUpLeg", "RightLeg"), ("LeftFoot", "LeftToeBase"), ("Spine", "Spine1"),
    ("Neck", "Head"), ("LeftHandIndex1", "LeftHandIndex2"), ("RightHandThumb1", "RightHandThumb2"),
]
worst = 0.0
for parent, child in chains:
    if parent not in names or child not in names:
        continue
    p, c = bones[parent], bones[child]
    along = (p.tail_local - p.head_local).normalized()
    towards = (c.head_local - p.head_local).normalized()
    angle = math.degrees(along.angle(towards))
    worst = max(worst, angle)
    if angle > 5:
        failures.append(f"{parent} points {angle:.1f}° away from {child}")
print(f"bones: {len(bones)}, worst bone-to-child angle: {worst:.2f}°")

clashes = sorted(o.name for o in bpy.data.objects if o.type == "MESH" and o.name in names)
if clashes:
    failures.append(f"meshes named like bones: {clashes}")
print("clips:", sorted(a.name.split("_")[0] for a in bpy.data.actions))

# Pose: lower the left arm and check the hand's skin follows.
body = next((o for o in bpy.data.objects if o.type == "MESH" and o.name == "Body"), None)
if body is None:
    failures.append("no Body mesh")
else:
    # The importer leaves the first clip applied: clear it and return to the T-pose.
    rig.animation_data_clear()
    for pose_bone in rig.pose.bones:
        pose_bone.rotation_mode = "QUATERNION"
        pose_bone.rotation_quaternion = (1, 0, 0, 0)
        pose_bone.location = (0, 0, 0)
    bpy.context.view_layer.update()
    def lowest_left_hand_z():
        deps = bpy.context.evaluated_depsgraph_get()
        mesh = body.evaluated_get(deps).to_mesh()
        xs = [body.matrix_world @ v.co for v in mesh.vertices]
        body.evaluated_get(deps).to_mesh_clear()
        reach = max(v.x for v in xs)
        return min(v.z for v in xs if v.x > reach - 0.05)
    before = lowest_left_hand_z()
    arm = rig.pose.bones["LeftArm"]
    # Mixamo's left arm: local Z faces forward, so a turn about it lowers the arm.
    arm.rotation_quaternion = (math.cos(math.radians(-30)), 0, 0, math.sin(math.radians(-30)))
    bpy.context.view_layer.update()
    after = lowest_left_hand_z()
    print(f"left fingertips' lowest point: {before:.3f} m in the T-pose, {after:.3f} m posed")
    if after > before - 0.3:
        failures.append("posing LeftArm did not lower the hand")

# Shape keys: Blender reads them from the sparse morph targets, not from our own reader.
head = next((o for o in bpy.data.objects if o.type == "MESH" and o.name.startswith("Head")), None)
keys = head.data.shape_keys.key_blocks if head is not None and head.data.shape_keys else None
if keys is None:
    failures.append("the Head mesh has no shape keys")
else:
    shapes = [k.name for k in keys if k.name != "Basis"]
    basis = keys["Basis"].data
    def largest_move(name, axis=None):
        if name not in keys:
            return 0.0
        moved = keys[name].data
        if axis is None:
            return max((moved[i].co - basis[i].co).length for i in range(len(basis)))
        return max(basis[i].co[axis] - moved[i].co[axis] for i in range(len(basis)))
    # glTF's +Y up is Blender's +Z: the chin goes down in z.
    jaw = largest_move("jawOpen", 2)
    blink = largest_move("eyeBlinkLeft")
    print(f"shape keys: {len(shapes)}, jawOpen drops {jaw * 100:.2f} cm, eyeBlinkLeft moves {blink * 1000:.1f} mm")
    if len(shapes) != 52:
        failures.append(f"expected 52 shape keys, found {len(shapes)}")
    if jaw < 0.015:
        failures.append("jawOpen drops the chin less than 1.5 cm")
    if blink < 0.003:
        failures.append("eyeBlinkLeft moves nothing")

if failures:
    print("FAIL\n" + "\n".join(failures))
    sys.exit(1)
print("OK")
