import { useFrame } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import * as THREE from 'three';
import { expressionAt } from './expression-loop.js';

interface Morphed {
  dictionary: Record<string, number>;
  influences: number[];
}

/** Every mesh of the scene that has named morph targets (the face, eyes, teeth, tongue…). */
function morphedMeshes(scene: THREE.Object3D): Morphed[] {
  const found: Morphed[] = [];
  scene.traverse((o) => {
    if (o instanceof THREE.Mesh && o.morphTargetDictionary && o.morphTargetInfluences) {
      found.push({ dictionary: o.morphTargetDictionary, influences: o.morphTargetInfluences });
    }
  });
  return found;
}

/**
 * Plays the expression loop on the avatar's blend shapes while `playing`;
 * stopping it returns the face to rest. Renders nothing itself.
 */
export function ExpressionLoop({ scene, playing }: { scene: THREE.Object3D; playing: boolean }) {
  // In a ref: the meshes' influences are written every frame, outside React's render.
  const meshes = useRef<Morphed[]>([]);
  const started = useRef(0);
  useEffect(() => {
    meshes.current = morphedMeshes(scene);
  }, [scene]);
  useEffect(() => {
    started.current = performance.now();
    if (!playing) for (const m of meshes.current) m.influences.fill(0);
  }, [scene, playing]);
  useFrame(() => {
    if (!playing) return;
    applyWeights(meshes.current, expressionAt((performance.now() - started.current) / 1000));
  });
  return null;
}

function applyWeights(meshes: readonly Morphed[], weights: Record<string, number>): void {
  for (const m of meshes) {
    m.influences.fill(0);
    for (const [name, w] of Object.entries(weights)) {
      const i = m.dictionary[name];
      if (i !== undefined) m.influences[i] = w;
    }
  }
}

/** The switch next to the preview that starts and stops the loop. */
export function ExpressionToggle({
  playing,
  onChange,
}: {
  playing: boolean;
  onChange(playing: boolean): void;
}) {
  return (
    <label className="expression-toggle">
      <input type="checkbox" checked={playing} onChange={(e) => onChange(e.target.checked)} />
      Play facial expressions
    </label>
  );
}
