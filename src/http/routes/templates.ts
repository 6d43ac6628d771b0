/**
 * Character templates, the starting kits of templates.json (docs/api.md):
 *
 *   GET /api/template               all templates (a fixed manifest list: not paginated)
 *   GET /api/template/:templateId   one template
 */
import { Router } from 'express';
import { z } from 'zod';
import type { GameContext } from '../../context.ts';
import type { CharacterTemplate } from '../../manifests/schemas/templates.ts';
import { GameError } from '../../game/refusal.ts';
import { defineRoute, IdParam, NoQuery, type ApiRegistry } from './api-kit.ts';

const Stack = z.object({ itemId: z.string(), name: z.string().nullable(), quantity: z.number().int() });
export const TemplateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Starting levels that differ from the defaults (1; constitution 10). */
  skills: z.record(z.string(), z.number().int()),
  inventory: z.array(Stack),
  equipment: z.record(z.string(), Stack),
}).meta({ id: 'CharacterTemplate' });
export const TemplatesResponse = z.object({ templates: z.array(TemplateSchema), total: z.number().int() });

export function registerTemplateRoutes(router: Router, registry: ApiRegistry, context: GameContext): void {
  const name = (id: string) => context.data?.itemsById.get(id)?.name ?? null;
  const view = (t: CharacterTemplate): z.infer<typeof TemplateSchema> => ({
    id: t.id,
    name: t.name,
    description: t.description,
    skills: { ...t.skills } as Record<string, number>,
    inventory: t.inventory.map((s) => ({ itemId: s.itemId, name: name(s.itemId), quantity: s.quantity })),
    equipment: Object.fromEntries(Object.entries(t.equipment).filter(([, id]) => id).map(([slot, id]) => [slot, { itemId: id as string, name: name(id as string), quantity: 1 }])),
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/template', tags: ['template'], query: NoQuery,
    summary: 'Character templates (starting kits) offered at character creation',
    responses: { 200: { description: 'the templates', schema: TemplatesResponse } },
    errors: [400],
  }, ({ res }) => {
    const templates = [...(context.data?.templatesById.values() ?? [])].map(view);
    res.json({ templates, total: templates.length } satisfies z.infer<typeof TemplatesResponse>);
  });

  defineRoute(router, registry, {
    method: 'get', path: '/api/template/:templateId', tags: ['template'], params: z.object({ templateId: IdParam }).strict(), query: NoQuery,
    summary: 'One character template',
    responses: { 200: { description: 'the template', schema: TemplateSchema } },
    errors: [400, 404], errorCodes: { 404: ['TEMPLATE_NOT_FOUND'] },
  }, ({ res, params }) => {
    const template = context.data?.templatesById.get(params.templateId);
    if (!template) throw new GameError('TEMPLATE_NOT_FOUND', `no template "${params.templateId}"`);
    res.json(view(template));
  });
}
