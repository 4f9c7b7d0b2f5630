import {
  ContentLevel,
  ContentModule,
  CreateLevelBody,
  CreateLevelOptionBody,
  CreateModuleBody,
  CreateScenarioBody,
  ErrorBody,
  IdParams,
  LevelList,
  LevelListQuery,
  LevelOption,
  LevelOptionList,
  LevelOptionListQuery,
  ModuleList,
  ModuleListQuery,
  OkBody,
  ScenarioDetail,
  ScenarioList,
  ScenarioListQuery,
  ScenarioSummary,
  UpdateLevelBody,
  UpdateLevelOptionBody,
  UpdateModuleBody,
  UpdateScenarioBody,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import type { ServiceContext } from '../platform/context.ts';
import * as content from './content.service.ts';

const tags = ['content'];
const ok = { ok: true as const };

/** Admin management of scenario content (/v1/admin/scenarios, modules, levels, level-options). */
export function contentRoutes(app: AppInstance, ctx: ServiceContext) {
  // ---- Scenarios ----
  app.get(
    '/v1/admin/scenarios',
    {
      schema: {
        tags,
        description: 'A page of scenarios; `q` matches the name or the description.',
        querystring: ScenarioListQuery,
        response: { 200: ScenarioList },
      },
    },
    (request) => content.listScenarios(ctx, request.query),
  );

  app.post(
    '/v1/admin/scenarios',
    { schema: { tags, body: CreateScenarioBody, response: { 201: ScenarioSummary } } },
    async (request, reply) => {
      reply.status(201);
      return content.createScenario(ctx, request.body);
    },
  );

  app.get(
    '/v1/admin/scenarios/:id',
    {
      schema: {
        tags,
        description:
          'The scenario with its modules (by order_index), their levels (by level_number) and ' +
          'their options (by order_index).',
        params: IdParams,
        response: { 200: ScenarioDetail, 404: ErrorBody },
      },
    },
    (request) => content.getScenario(ctx, request.params.id),
  );

  app.put(
    '/v1/admin/scenarios/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateScenarioBody,
        response: { 200: ScenarioSummary, 404: ErrorBody },
      },
    },
    (request) => content.updateScenario(ctx, request.params.id, request.body),
  );

  app.delete(
    '/v1/admin/scenarios/:id',
    {
      schema: {
        tags,
        description:
          'Deletes the scenario and, deliberately, everything under it: its modules, levels, level ' +
          'options and every organisation’s access grant. Sessions that ran it are kept: they ' +
          'hold copies of the scenario, module and level names, and their references to the ' +
          'deleted rows become null (ON DELETE SET NULL), so history and statistics survive.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await content.deleteScenario(ctx, request.params.id);
      return ok;
    },
  );

  // ---- Modules ----
  app.get(
    '/v1/admin/scenarios/:id/modules',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: ModuleListQuery,
        response: { 200: ModuleList, 404: ErrorBody },
      },
    },
    (request) => content.listModules(ctx, request.params.id, request.query),
  );

  app.post(
    '/v1/admin/scenarios/:id/modules',
    {
      schema: {
        tags,
        description: 'Without order_index the module goes after the scenario’s last one.',
        params: IdParams,
        body: CreateModuleBody,
        response: { 201: ContentModule, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const created = await content.createModule(ctx, request.params.id, request.body);
      reply.status(201);
      return created;
    },
  );

  app.put(
    '/v1/admin/modules/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateModuleBody,
        response: { 200: ContentModule, 404: ErrorBody },
      },
    },
    (request) => content.updateModule(ctx, request.params.id, request.body),
  );

  app.delete(
    '/v1/admin/modules/:id',
    {
      schema: {
        tags,
        description:
          'Deletes the module with its levels and options; sessions keep their copied names.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await content.deleteModule(ctx, request.params.id);
      return ok;
    },
  );

  // ---- Levels ----
  app.get(
    '/v1/admin/modules/:id/levels',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: LevelListQuery,
        response: { 200: LevelList, 404: ErrorBody },
      },
    },
    (request) => content.listLevels(ctx, request.params.id, request.query),
  );

  app.post(
    '/v1/admin/modules/:id/levels',
    {
      schema: {
        tags,
        params: IdParams,
        body: CreateLevelBody,
        response: { 201: ContentLevel, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const created = await content.createLevel(ctx, request.params.id, request.body);
      reply.status(201);
      return created;
    },
  );

  app.put(
    '/v1/admin/levels/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateLevelBody,
        response: { 200: ContentLevel, 404: ErrorBody },
      },
    },
    (request) => content.updateLevel(ctx, request.params.id, request.body),
  );

  app.delete(
    '/v1/admin/levels/:id',
    {
      schema: {
        tags,
        description: 'Deletes the level with its options; sessions keep their copied names.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody },
      },
    },
    async (request) => {
      await content.deleteLevel(ctx, request.params.id);
      return ok;
    },
  );

  // ---- Level options ----
  app.get(
    '/v1/admin/levels/:id/options',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: LevelOptionListQuery,
        response: { 200: LevelOptionList, 404: ErrorBody },
      },
    },
    (request) => content.listLevelOptions(ctx, request.params.id, request.query),
  );

  app.post(
    '/v1/admin/levels/:id/options',
    {
      schema: {
        tags,
        params: IdParams,
        body: CreateLevelOptionBody,
        response: { 201: LevelOption, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const created = await content.createLevelOption(ctx, request.params.id, request.body);
      reply.status(201);
      return created;
    },
  );

  app.put(
    '/v1/admin/level-options/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: UpdateLevelOptionBody,
        response: { 200: LevelOption, 404: ErrorBody },
      },
    },
    (request) => content.updateLevelOption(ctx, request.params.id, request.body),
  );

  app.delete(
    '/v1/admin/level-options/:id',
    { schema: { tags, params: IdParams, response: { 200: OkBody, 404: ErrorBody } } },
    async (request) => {
      await content.deleteLevelOption(ctx, request.params.id);
      return ok;
    },
  );
}
