import * as migration_20261122_062745_initial from './20261122_062745_initial';
import * as migration_20261122_070000_seed_roles from './20261122_070000_seed_roles';
import * as migration_20261122_070100_account_stores from './20261122_070100_account_stores';
import * as migration_20261123_120000_plain_excerpts from './20261123_120000_plain_excerpts';
import * as migration_20261123_130000_list_indexes from './20261123_130000_list_indexes';
import * as migration_20261123_140500_schedule_runs from './20261123_140500_schedule_runs';
import * as migration_20261123_150000_search from './20261123_150000_search';
import * as migration_20261123_180000_article_view_days from './20261123_180000_article_view_days';
import * as migration_20261124_100000_oauth_identities from './20261124_100000_oauth_identities';
import * as migration_20261124_110000_applied_view_batches from './20261124_110000_applied_view_batches';
import * as migration_20261124_130000_article_slug_origin from './20261124_130000_article_slug_origin';
import * as migration_20261124_130100_user_switches from './20261124_130100_user_switches';
import * as migration_20261124_140000_access_tokens from './20261124_140000_access_tokens';
import * as migration_20261124_160000_reply_threads_follows_language from './20261124_160000_reply_threads_follows_language';
import * as migration_20261124_170000_sitemap_index from './20261124_170000_sitemap_index';
import * as migration_20261124_180000_dashboard_rollups from './20261124_180000_dashboard_rollups';
import * as migration_20261124_190000_search_rank from './20261124_190000_search_rank';
import * as migration_20261124_200000_articles_hidden_idx from './20261124_200000_articles_hidden_idx';
import * as migration_20261124_210000_articles_public_order_idx from './20261124_210000_articles_public_order_idx';
import * as migration_20261125_120000_user_switch_acts from './20261125_120000_user_switch_acts';
import * as migration_20261125_190000_webhooks from './20261125_190000_webhooks';
import * as migration_20261126_100000_moderation from './20261126_100000_moderation';
import * as migration_20261126_110000_import from './20261126_110000_import';
import * as migration_20261126_120000_user_language from './20261126_120000_user_language';
import * as migration_20261126_130000_article_versions from './20261126_130000_article_versions';
import * as migration_20261126_140000_akismet from './20261126_140000_akismet';
import * as migration_20261126_150000_media_storage from './20261126_150000_media_storage';
import * as migration_20261126_160000_import_runs from './20261126_160000_import_runs';
import * as migration_20261126_160000_public_list_counts_idx from './20261126_160000_public_list_counts_idx';
import * as migration_20261126_170000_reply_thread_order_idx from './20261126_170000_reply_thread_order_idx';
import * as migration_20261126_170100_reply_count_order_idx from './20261126_170100_reply_count_order_idx';
import * as migration_20261126_180500_public_list_counts from './20261126_180500_public_list_counts';

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
    up: migration_20261124_100000_oauth_identities.up,
    down: migration_20261124_100000_oauth_identities.down,
    name: '20261124_100000_oauth_identities'
  },
  {
    up: migration_20261124_110000_applied_view_batches.up,
    down: migration_20261124_110000_applied_view_batches.down,
    name: '20261124_110000_applied_view_batches'
  },
  {
    up: migration_20261124_130000_article_slug_origin.up,
    down: migration_20261124_130000_article_slug_origin.down,
    name: '20261124_130000_article_slug_origin'
  },
  {
    up: migration_20261124_130100_user_switches.up,
    down: migration_20261124_130100_user_switches.down,
    name: '20261124_130100_user_switches'
  },
  {
    up: migration_20261124_140000_access_tokens.up,
    down: migration_20261124_140000_access_tokens.down,
    name: '20261124_140000_access_tokens'
  },
  {
    up: migration_20261124_160000_reply_threads_follows_language.up,
    down: migration_20261124_160000_reply_threads_follows_language.down,
    name: '20261124_160000_reply_threads_follows_language'
  },
  {
    up: migration_20261124_170000_sitemap_index.up,
    down: migration_20261124_170000_sitemap_index.down,
    name: '20261124_170000_sitemap_index'
  },
  {
    up: migration_20261124_180000_dashboard_rollups.up,
    down: migration_20261124_180000_dashboard_rollups.down,
    name: '20261124_180000_dashboard_rollups'
  },
  {
    up: migration_20261124_190000_search_rank.up,
    down: migration_20261124_190000_search_rank.down,
    name: '20261124_190000_search_rank'
  },
  {
    up: migration_20261124_200000_articles_hidden_idx.up,
    down: migration_20261124_200000_articles_hidden_idx.down,
    name: '20261124_200000_articles_hidden_idx'
  },
  {
    up: migration_20261124_210000_articles_public_order_idx.up,
    down: migration_20261124_210000_articles_public_order_idx.down,
    name: '20261124_210000_articles_public_order_idx'
  },
  {
    up: migration_20261125_120000_user_switch_acts.up,
    down: migration_20261125_120000_user_switch_acts.down,
    name: '20261125_120000_user_switch_acts'
  },
  {
    up: migration_20261125_190000_webhooks.up,
    down: migration_20261125_190000_webhooks.down,
    name: '20261125_190000_webhooks'
  },
  {
    up: migration_20261126_100000_moderation.up,
    down: migration_20261126_100000_moderation.down,
    name: '20261126_100000_moderation'
  },
  {
    up: migration_20261126_110000_import.up,
    down: migration_20261126_110000_import.down,
    name: '20261126_110000_import'
  },
  {
    up: migration_20261126_120000_user_language.up,
    down: migration_20261126_120000_user_language.down,
    name: '20261126_120000_user_language'
  },
  {
    up: migration_20261126_130000_article_versions.up,
    down: migration_20261126_130000_article_versions.down,
    name: '20261126_130000_article_versions'
  },
  {
    up: migration_20261126_140000_akismet.up,
    down: migration_20261126_140000_akismet.down,
    name: '20261126_140000_akismet'
  },
  {
    up: migration_20261126_150000_media_storage.up,
    down: migration_20261126_150000_media_storage.down,
    name: '20261126_150000_media_storage'
  },
  {
    up: migration_20261126_160000_import_runs.up,
    down: migration_20261126_160000_import_runs.down,
    name: '20261126_160000_import_runs'
  },
  {
    up: migration_20261126_160000_public_list_counts_idx.up,
    down: migration_20261126_160000_public_list_counts_idx.down,
    name: '20261126_160000_public_list_counts_idx'
  },
  {
    up: migration_20261126_170000_reply_thread_order_idx.up,
    down: migration_20261126_170000_reply_thread_order_idx.down,
    name: '20261126_170000_reply_thread_order_idx'
  },
  {
    up: migration_20261126_170100_reply_count_order_idx.up,
    down: migration_20261126_170100_reply_count_order_idx.down,
    name: '20261126_170100_reply_count_order_idx'
  },
  {
    up: migration_20261126_180500_public_list_counts.up,
    down: migration_20261126_180500_public_list_counts.down,
    name: '20261126_180500_public_list_counts'
  },
];
