import type { BoxModel } from './box-models.ts';

const IRON: [number, number, number] = [0.25, 0.25, 0.28];
const STONE: [number, number, number] = [0.55, 0.53, 0.5];
const BRICK: [number, number, number] = [0.55, 0.27, 0.2];
const WOOD: [number, number, number] = [0.45, 0.3, 0.16];
const MARBLE: [number, number, number] = [0.9, 0.88, 0.84];

/**
 * The original station models shipped with the bundled world, each built from boxes standing on y = 0
 * and centred on x and z. Overall sizes (x × y × z, meters) are given per model.
 */
export const STATION_MODELS: BoxModel[] = [
  {
    id: 'anvil', // 1.0 × 0.8 × 0.6
    boxes: [
      { min: [-0.3, 0, -0.2], max: [0.3, 0.5, 0.2], color: IRON },
      { min: [-0.5, 0.5, -0.3], max: [0.5, 0.8, 0.3], color: IRON },
    ],
  },
  {
    id: 'furnace', // 2.0 × 2.5 × 2.0
    boxes: [
      { min: [-1, 0, -1], max: [1, 1.8, 1], color: BRICK },
      { min: [-0.3, 1.8, -0.3], max: [0.3, 2.5, 0.3], color: BRICK },
    ],
  },
  {
    id: 'range', // 1.5 × 1.0 × 1.2
    boxes: [{ min: [-0.75, 0, -0.6], max: [0.75, 1, 0.6], color: IRON }],
  },
  {
    id: 'bank-booth', // 1.0 × 2.2 × 0.9
    boxes: [
      { min: [-0.5, 0, -0.45], max: [0.5, 1.1, 0.45], color: WOOD },
      { min: [-0.5, 1.1, -0.45], max: [0.5, 2.2, -0.35], color: WOOD },
    ],
  },
  {
    id: 'altar', // 2.0 × 1.1 × 1.0
    boxes: [{ min: [-1, 0, -0.5], max: [1, 1.1, 0.5], color: MARBLE }],
  },
  {
    id: 'rune-altar', // 2.6 × 1.2 × 2.6
    boxes: [
      { min: [-1.3, 0, -1.3], max: [1.3, 0.4, 1.3], color: STONE },
      { min: [-0.5, 0.4, -0.5], max: [0.5, 1.2, 0.5], color: STONE },
    ],
  },
];
