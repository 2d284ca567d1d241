import type { Client } from '@elastic/elasticsearch';
import {
  commonIndexSettings,
  eventsIndexSort,
  detectionStatesMapping,
  eventsMapping,
  investigationsMapping,
} from './index-mappings';
import type { IndexNames, ReadModelName } from './index-names';

const MAPPINGS: Record<ReadModelName, object> = {
  events: eventsMapping,
  investigations: investigationsMapping,
  'detection-states': detectionStatesMapping,
};

/**
 * Installs the index templates and, when the alias does not exist yet, the first versioned
 * index behind it. Safe to run from several processes at once.
 */
export async function ensureReadModels(
  client: Client,
  names: IndexNames,
  replicas = 0,
): Promise<void> {
  for (const model of Object.keys(MAPPINGS) as ReadModelName[]) {
    await client.indices.putIndexTemplate({
      name: names.template(model),
      index_patterns: [names.pattern(model)],
      template: {
        settings:
          model === 'events'
            ? { ...commonIndexSettings(replicas), sort: eventsIndexSort }
            : commonIndexSettings(replicas),
        mappings: MAPPINGS[model],
      },
    });
    const exists = await client.indices.existsAlias({ name: names.alias(model) });
    if (exists) continue;
    try {
      await client.indices.create({
        index: names.versioned(model),
        aliases: { [names.alias(model)]: { is_write_index: true } },
      });
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
  }
}

function isAlreadyExists(error: unknown): boolean {
  const type = (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body?.error
    ?.type;
  return type === 'resource_already_exists_exception';
}
