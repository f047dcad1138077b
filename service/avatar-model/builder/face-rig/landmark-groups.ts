/**
 * Groups of the 468-point face mesh (MediaPipe's topology) that the face
 * rig moves. "Left" is the person's own left (+x in the model), as in ARKit.
 */
export const UPPER_LIP = [
  61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308,
  62, 183, 42, 41, 38, 12, 268, 271, 272, 407, 292, 76, 184, 74, 73, 72, 11, 302, 303, 304, 408,
  306,
];
export const LOWER_LIP = [
  146, 91, 181, 84, 17, 314, 405, 321, 375, 95, 88, 178, 87, 14, 317, 402, 318, 324, 77, 90, 180,
  85, 16, 315, 404, 320, 307, 96, 89, 179, 86, 15, 316, 403, 319, 325,
];
/** The lips' inner edge, the mouth opening, from corner to corner over the top and back. */
export const INNER_LIP_TOP = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308];
export const INNER_LIP_BOTTOM = [308, 324, 318, 402, 317, 14, 87, 178, 88, 95, 78];
export const MOUTH_CORNERS = { right: 61, left: 291 } as const;
export const CHIN = [152, 148, 377, 176, 400, 149, 378];

export interface EyeLids {
  /** Upper-lid edge, corner to corner; `lower` is the lower edge in the same order, paired point by point. */
  upper: number[];
  lower: number[];
  /** The fold above the upper lid, paired with `upper`. */
  crease: number[];
  corners: [number, number];
}

export const RIGHT_LIDS: EyeLids = {
  upper: [246, 161, 160, 159, 158, 157, 173],
  lower: [7, 163, 144, 145, 153, 154, 155],
  crease: [247, 30, 29, 27, 28, 56, 190],
  corners: [33, 133],
};
export const LEFT_LIDS: EyeLids = {
  upper: [466, 388, 387, 386, 385, 384, 398],
  lower: [249, 390, 373, 374, 380, 381, 382],
  crease: [467, 260, 259, 257, 258, 286, 414],
  corners: [263, 362],
};

export const BROWS = {
  right: { upper: [70, 63, 105, 66, 107], lower: [46, 53, 52, 65, 55] },
  left: { upper: [300, 293, 334, 296, 336], lower: [276, 283, 282, 295, 285] },
} as const;
export const INNER_BROW = { right: [107, 55, 66, 65], left: [336, 285, 296, 295] } as const;
export const OUTER_BROW = { right: [70, 46, 63, 53], left: [300, 276, 293, 283] } as const;
export const CHEEK = { right: [205, 50, 123], left: [425, 280, 352] } as const;
export const UNDER_EYE = { right: [117, 118, 101, 100], left: [346, 347, 330, 329] } as const;
export const NOSE_WING = {
  right: [129, 98, 64, 48, 49, 102],
  left: [358, 327, 294, 278, 279, 331],
} as const;
