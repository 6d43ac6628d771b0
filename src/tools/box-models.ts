import { Document, NodeIO, type Material } from '@gltf-transform/core';

/** An axis-aligned box given by its corner coordinates in meters. */
export interface Box {
  min: [number, number, number];
  max: [number, number, number];
  color: [number, number, number];
}

export interface BoxModel {
  id: string;
  boxes: Box[];
}

// Each face: normal and its four corners as indices into the 8 box corners (bit 0 = x, bit 1 = y, bit 2 = z).
const FACES: { normal: [number, number, number]; corners: [number, number, number, number] }[] = [
  { normal: [1, 0, 0], corners: [1, 3, 7, 5] },
  { normal: [-1, 0, 0], corners: [0, 4, 6, 2] },
  { normal: [0, 1, 0], corners: [2, 6, 7, 3] },
  { normal: [0, -1, 0], corners: [0, 1, 5, 4] },
  { normal: [0, 0, 1], corners: [4, 5, 7, 6] },
  { normal: [0, 0, -1], corners: [0, 2, 3, 1] },
];

function boxGeometry(box: Box): { positions: Float32Array; normals: Float32Array; indices: Uint16Array } {
  const corner = (i: number) => [0, 1, 2].map((axis) => ((i >> axis) & 1 ? box.max[axis] : box.min[axis]));
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  for (const face of FACES) {
    const base = positions.length / 3;
    for (const c of face.corners) {
      positions.push(...corner(c));
      normals.push(...face.normal);
    }
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return { positions: new Float32Array(positions), normals: new Float32Array(normals), indices: new Uint16Array(indices) };
}

/** Builds a binary glTF (GLB) with one mesh primitive per box. */
export async function boxModelToGlb(model: BoxModel): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh(model.id);
  const materials = new Map<string, Material>();
  for (const box of model.boxes) {
    const key = box.color.join(',');
    let material = materials.get(key);
    if (!material) {
      material = doc.createMaterial(`${model.id}-${materials.size}`).setBaseColorFactor([...box.color, 1]);
      materials.set(key, material);
    }
    const { positions, normals, indices } = boxGeometry(box);
    const primitive = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normals).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
      .setMaterial(material);
    mesh.addPrimitive(primitive);
  }
  doc.createScene(model.id).addChild(doc.createNode(model.id).setMesh(mesh));
  return new NodeIO().writeBinary(doc);
}
