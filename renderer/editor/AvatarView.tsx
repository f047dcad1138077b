import { OrbitControls } from '@react-three/drei';
import { Canvas, useFrame } from '@react-three/fiber';
import { useEffect, useMemo, useState } from 'react';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { StoredCustomization } from '../../shared/studio/index.js';
import { EYE_COLOURS } from '../../shared/appearance/eye-colours.js';
import { AnimationPicker } from './AnimationPicker.js';
import { ExpressionLoop, ExpressionToggle } from './ExpressionLoop.js';
import { boneFactor, skinTint, splitRgba } from './draft.js';

/** The clip the preview plays, when its owner decides it (the session page's SDK does). */
export interface AnimationControl {
  playing: string | null;
  onChange(clip: string | null): void;
}

interface Props {
  glb: Uint8Array | null;
  /** The customization the GLB was built with. */
  loaded: StoredCustomization | null;
  /** What the controls show now: the preview approximates the difference at once. */
  draft: StoredCustomization | null;
  /** Without it the preview keeps its own choice, starting in the T-pose. */
  animation?: AnimationControl;
}

interface Original {
  color: THREE.Color;
  opacity: number;
}

interface Loaded {
  scene: THREE.Group;
  clips: THREE.AnimationClip[];
}

function parseGlb(bytes: Uint8Array): Promise<Loaded> {
  const buffer = bytes.buffer.slice(
    bytes.byteOffset,
    bytes.byteOffset + bytes.byteLength,
  ) as ArrayBuffer;
  return new Promise((resolve, reject) =>
    new GLTFLoader().parse(
      buffer,
      '',
      (gltf) => resolve({ scene: gltf.scene, clips: gltf.animations }),
      reject,
    ),
  );
}

/** Plays the chosen clip on the scene's skeleton; stopping it restores the T-pose. */
function Player({ loaded, playing }: { loaded: Loaded; playing: string | null }) {
  const mixer = useMemo(() => new THREE.AnimationMixer(loaded.scene), [loaded]);
  useEffect(() => {
    mixer.stopAllAction();
    const clip = loaded.clips.find((c) => c.name === playing);
    if (clip) mixer.clipAction(clip).play();
  }, [mixer, loaded, playing]);
  useEffect(
    () => () => {
      mixer.stopAllAction();
    },
    [mixer],
  );
  useFrame((_, delta) => mixer.update(delta));
  return null;
}

function dispose(root: THREE.Object3D): void {
  root.traverse((o) => {
    if (o instanceof THREE.Mesh) {
      o.geometry.dispose();
      for (const m of Array.isArray(o.material) ? o.material : [o.material]) {
        for (const value of Object.values(m as Record<string, unknown>))
          if (value instanceof THREE.Texture) value.dispose();
        (m as THREE.Material).dispose();
      }
    }
  });
}

function materialsOf(root: THREE.Object3D): THREE.MeshStandardMaterial[] {
  const out: THREE.MeshStandardMaterial[] = [];
  root.traverse((o) => {
    if (o instanceof THREE.Mesh)
      for (const m of Array.isArray(o.material) ? o.material : [o.material])
        if (m instanceof THREE.MeshStandardMaterial && !out.includes(m)) out.push(m);
  });
  return out;
}

/**
 * Applies what can be shown without the service: bone scales on the
 * skeleton, skin tint, eye, hair and lens colours on the materials. Each is
 * relative to the customization the GLB was built with, which already has
 * its own values baked in.
 */
function approximate(
  root: THREE.Object3D,
  originals: Map<THREE.Material, Original>,
  loaded: StoredCustomization,
  draft: StoredCustomization,
): void {
  const bone = (name: string) => root.getObjectByName(name);
  const rel = (key: 'head' | 'arms' | 'chest') =>
    boneFactor(draft.bone_scale[key]) / boneFactor(loaded.bone_scale[key]);
  bone('Head')?.scale.setScalar(rel('head'));
  for (const side of ['Left', 'Right']) bone(`${side}Arm`)?.scale.setScalar(rel('arms'));
  const chest = bone('Spine2');
  chest?.scale.set(rel('chest'), 1, rel('chest'));
  // The chest's children would inherit its girth: undo it for the neck and arms.
  for (const child of ['Neck', 'LeftShoulder', 'RightShoulder'])
    bone(child)?.scale.set(1 / rel('chest'), 1, 1 / rel('chest'));

  const tint = skinTint(draft.skin_tone_correction, loaded.skin_tone_correction);
  for (const m of materialsOf(root)) {
    const original = originals.get(m);
    if (!original) continue;
    m.color.copy(original.color);
    m.opacity = original.opacity;
    const name = m.name;
    if (name === 'Skin' || name === 'HeadSkin') m.color.multiplyScalar(tint);
    else if (name.startsWith('EyeIrisInner')) m.color.set(EYE_COLOURS[draft.eye_texture].inner);
    else if (name.startsWith('EyeIris')) m.color.set(EYE_COLOURS[draft.eye_texture].iris);
    else if (
      (name.startsWith('Hair') || name.startsWith('Headwear')) &&
      draft.assets.hair_and_headwear?.color
    )
      m.color.set(draft.assets.hair_and_headwear.color);
    else if (name.startsWith('GlassesLens') && draft.assets.eyewear?.color) {
      const { rgb, alpha } = splitRgba(draft.assets.eyewear.color);
      m.color.set(rgb);
      m.opacity = alpha;
      m.transparent = alpha < 1;
    }
  }
}

function Avatar({
  scene,
  loaded,
  draft,
}: {
  scene: THREE.Group;
  loaded: StoredCustomization;
  draft: StoredCustomization;
}) {
  const originals = useMemo(() => {
    const map = new Map<THREE.Material, Original>();
    for (const m of materialsOf(scene)) map.set(m, { color: m.color.clone(), opacity: m.opacity });
    return map;
  }, [scene]);
  useEffect(() => approximate(scene, originals, loaded, draft), [scene, originals, loaded, draft]);
  return <primitive object={scene} />;
}

/** The orbitable 3D preview of the avatar. */
export function AvatarView({ glb, loaded, draft, animation }: Props) {
  const [model, setModel] = useState<Loaded | null>(null);
  const [ownChoice, setOwnChoice] = useState<string | null>(null);
  const playing = animation ? animation.playing : ownChoice;
  const setPlaying = animation ? animation.onChange : setOwnChoice;
  const [expressions, setExpressions] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scene = model?.scene ?? null;

  useEffect(() => {
    if (!glb) return;
    let live = true;
    let made: THREE.Group | null = null;
    parseGlb(glb)
      .then((m) => {
        made = m.scene;
        if (live) setModel(m);
        else dispose(m.scene);
      })
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
      // The next model replaces this one; keep it until then, dispose after.
      if (made) setTimeout(() => dispose(made!), 0);
    };
  }, [glb]);

  return (
    <div className="editor-canvas">
      {error ? (
        <p className="error" role="alert">
          The preview could not load: {error}
        </p>
      ) : null}
      <AnimationPicker
        clips={model?.clips.map((c) => c.name) ?? []}
        playing={playing}
        onChange={setPlaying}
      />
      <ExpressionToggle playing={expressions} onChange={setExpressions} />
      <Canvas
        camera={{ position: [0, 1.15, 3.4], fov: 35 }}
        dpr={[1, 1.5]}
        gl={{ antialias: true, preserveDrawingBuffer: true }}
        aria-label="3D preview of the avatar"
      >
        <color attach="background" args={['#eef1f4']} />
        <hemisphereLight args={['#ffffff', '#8a8f99', 1.1]} />
        <directionalLight position={[2.5, 4, 3]} intensity={1.6} />
        <directionalLight position={[-3, 2, -2]} intensity={0.5} />
        <mesh rotation={[-Math.PI / 2, 0, 0]} position={[0, 0, 0]}>
          <circleGeometry args={[1.1, 48]} />
          <meshStandardMaterial color="#dfe3e8" />
        </mesh>
        {scene && loaded && draft ? <Avatar scene={scene} loaded={loaded} draft={draft} /> : null}
        {model ? <Player loaded={model} playing={playing} /> : null}
        {scene ? <ExpressionLoop scene={scene} playing={expressions} /> : null}
        <OrbitControls target={[0, 1.0, 0]} minDistance={0.8} maxDistance={6} enablePan={false} />
      </Canvas>
    </div>
  );
}
