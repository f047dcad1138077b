import type { ServiceContext } from '../context.js';
import { ok, route } from '../http/route-table.js';
import { httpError } from '../http/http-error.js';
import {
  AvatarDiagnostics,
  AvatarIdPathParams,
  type UploadPhotoField,
} from '../../shared/api/index.js';
import type { StoredAnalysis } from './processing-repo.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Local extension: an avatar's state, failure reason and what processing measured. */
export const diagnosticsRoutes = [
  route({
    method: 'GET',
    path: '/local/v1/avatars/{id}',
    summary: "An avatar's state, failure reason and what processing measured in each photo",
    local: true,
    auth: 'bearer',
    params: AvatarIdPathParams,
    responses: {
      '200': ok(AvatarDiagnostics),
      '404': { description: 'Unknown avatar' },
    },
    bind: diagnostics,
  }),
];

function diagnostics(ctx: ServiceContext) {
  const row = ctx.db.prepare<
    [string, string],
    {
      id: string;
      user_id: string;
      status: AvatarDiagnostics['status'];
      failure_code: string | null;
      failure_reason: string | null;
      body_type: AvatarDiagnostics['body_type'];
      telephoto: number | null;
      created_at: number;
      uploaded_at: number | null;
      processed_at: number | null;
      processing_attempts: number;
      customization_version: number;
      analysis: string | null;
    }
  >(
    `SELECT a.id, a.user_id, a.status, a.failure_code, a.failure_reason, a.body_type, a.telephoto, a.created_at,
       a.uploaded_at, a.processed_at, a.processing_attempts, a.customization_version, x.data AS analysis
     FROM avatars a LEFT JOIN avatar_analysis x ON x.avatar_id = a.id
     WHERE a.id = ? AND a.project_id = ?`,
  );
  const photos = ctx.db.prepare<
    [string],
    {
      slot: UploadPhotoField;
      detected_type: string;
      declared_type: string | null;
      byte_size: number;
      sha256: string;
    }
  >(
    'SELECT slot, detected_type, declared_type, byte_size, sha256 FROM photos WHERE avatar_id = ? ORDER BY slot',
  );

  return ({
    project,
    path,
  }: {
    project: { id: string };
    path: { id: string };
  }): [number, unknown] => {
    const avatar = row.get(path.id.toLowerCase(), project.id);
    if (!avatar) throw httpError(404, 'Avatar not found');
    const analysis = avatar.analysis ? (JSON.parse(avatar.analysis) as StoredAnalysis) : null;
    const body: AvatarDiagnostics = {
      id: avatar.id,
      user_id: avatar.user_id,
      status: avatar.status,
      failure_code: avatar.failure_code,
      failure_reason: avatar.failure_reason,
      failed_photos: analysis
        ? Object.entries(analysis.photos)
            .filter(([, p]) => !p.check.ok)
            .map(([field]) => field)
        : [],
      body_type: avatar.body_type,
      telephoto: avatar.telephoto === null ? null : avatar.telephoto === 1,
      created_at: iso(avatar.created_at)!,
      uploaded_at: iso(avatar.uploaded_at),
      processed_at: iso(avatar.processed_at),
      processing_attempts: avatar.processing_attempts,
      customization_version: avatar.customization_version,
      skin_tone: analysis?.skin_tone ?? null,
      hair_color: analysis?.hair_color ?? null,
      photos: photos.all(avatar.id).map((p) => {
        const a = analysis?.photos[p.slot];
        const face = a?.faces[0];
        return {
          field: p.slot,
          detected_type: p.detected_type,
          declared_type: p.declared_type,
          byte_size: p.byte_size,
          sha256: p.sha256,
          width: a ? a.width : null,
          height: a ? a.height : null,
          luminance: a ? a.luminance : null,
          sharpness: a ? a.sharpness : null,
          faces: a ? a.faceCount : null,
          yaw: face?.yaw ?? null,
          pitch: face?.pitch ?? null,
          roll: face?.roll ?? null,
          check: a?.check ?? null,
        };
      }),
    };
    return [200, body];
  };
}
