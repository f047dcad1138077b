import type { Db } from '../db/database.js';
import { ASSET_SLOTS, type AssetSlot, type StoredCustomization } from '../../shared/api/index.js';

export type AssetProblem =
  | { kind: 'not_in_project'; ids: string[] }
  | { kind: 'placement'; id: string; placement: AssetSlot; category: string };

/**
 * Checks a customization's assets against the project's catalogue: first
 * every unknown id (410 lists them all), then the first asset put into a slot
 * of another category (409 names one).
 */
export function findAssetProblem(
  db: Db,
  projectId: string,
  customization: StoredCustomization,
): AssetProblem | undefined {
  const lookup = db.prepare<[string, string], { category: string }>(
    'SELECT category FROM assets WHERE project_id = ? AND id = ?',
  );
  const placed = ASSET_SLOTS.flatMap((slot) => {
    const ref = customization.assets[slot];
    return ref ? [{ slot, id: ref.id, category: lookup.get(projectId, ref.id)?.category }] : [];
  });
  const unknown = [...new Set(placed.filter((p) => p.category === undefined).map((p) => p.id))];
  if (unknown.length > 0) return { kind: 'not_in_project', ids: unknown };
  const misplaced = placed.find((p) => p.category !== p.slot);
  if (misplaced) {
    return {
      kind: 'placement',
      id: misplaced.id,
      placement: misplaced.slot,
      category: misplaced.category!,
    };
  }
  return undefined;
}
