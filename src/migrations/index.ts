import * as migration_20261122_062745_initial from './20261122_062745_initial';
import * as migration_20261122_070000_seed_roles from './20261122_070000_seed_roles';
import * as migration_20261122_070100_account_stores from './20261122_070100_account_stores';
import * as migration_20261123_120000_plain_excerpts from './20261123_120000_plain_excerpts';
import * as migration_20261123_130000_list_indexes from './20261123_130000_list_indexes';
import * as migration_20261123_140500_schedule_runs from './20261123_140500_schedule_runs';
import * as migration_20261123_150000_search from './20261123_150000_search';
import * as migration_20261123_180000_article_view_days from './20261123_180000_article_view_days';
import * as migration_20261124_170000_sitemap_index from './20261124_170000_sitemap_index';

export const migrations = [
  {
    up: migration_20261122_062745_initial.up,
    down: migration_20261122_062745_initial.down,
    name: '20261122_062745_initial'
  },
  {
    up: migration_20261122_070000_seed_roles.up,
    down: migration_20261122_070000_seed_roles.down,
    name: '20261122_070000_seed_roles'
  },
  {
    up: migration_20261122_070100_account_stores.up,
    down: migration_20261122_070100_account_stores.down,
    name: '20261122_070100_account_stores'
  },
  {
    up: migration_20261123_120000_plain_excerpts.up,
    down: migration_20261123_120000_plain_excerpts.down,
    name: '20261123_120000_plain_excerpts'
  },
  {
    up: migration_20261123_130000_list_indexes.up,
    down: migration_20261123_130000_list_indexes.down,
    name: '20261123_130000_list_indexes'
  },
  {
    up: migration_20261123_140500_schedule_runs.up,
    down: migration_20261123_140500_schedule_runs.down,
    name: '20261123_140500_schedule_runs'
  },
  {
    up: migration_20261123_150000_search.up,
    down: migration_20261123_150000_search.down,
    name: '20261123_150000_search'
  },
  {
    up: migration_20261123_180000_article_view_days.up,
    down: migration_20261123_180000_article_view_days.down,
    name: '20261123_180000_article_view_days'
  },
  {
    up: migration_20261124_170000_sitemap_index.up,
    down: migration_20261124_170000_sitemap_index.down,
    name: '20261124_170000_sitemap_index'
  },
];
