import type { Migration, MigrationProvider } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import * as initial from './0001-initial.js';
import * as subscriptionsCodePoint from './0002-subscriptions-code-point-order.js';
import * as realtime from './0003-realtime.js';
import * as livechatVisitorRooms from './0004-livechat-visitor-rooms.js';
import * as roomsChangedSince from './0005-rooms-changed-since.js';
import * as agentLoad from './0006-agent-load.js';
import * as roomSearchDirectoryOnly from './0007-room-search-directory-only.js';
import * as searchUnchangedValues from './0008-search-unchanged-values.js';
import * as agentPickIndex from './0009-agent-pick-index.js';
import * as dropUsersUpdatedAtIndex from './0010-drop-users-updated-at-index.js';
import * as roomSearchDirectoryOnlyPg from './0011-room-search-directory-only-pg.js';
import * as roomsSparseIndexes from './0012-rooms-sparse-indexes.js';
import * as inquiriesQueuedIndexes from './0013-inquiries-queued-indexes.js';
import * as subscriptionsRoomSeq from './0014-subscriptions-room-seq.js';
import * as subscriptionsRoomSeqPg from './0015-subscriptions-room-seq-pg.js';
import * as roomSearchFnameDiffersPg from './0016-room-search-fname-differs-pg.js';
import * as searchBacklog from './0017-search-backlog.js';
import * as jobs from './0018-jobs.js';
import * as desk from './0026-desk.js';
import * as routing from './0019-routing.js';
import * as presence from './0020-presence.js';
import * as transferData from './0021-transfer-data.js';
import * as businessHours from './0024-business-hours.js';
import * as emailOutbox from './0022-email-outbox.js';
import * as files from './0025-files.js';
import * as livechatSearch from './0027-livechat-search.js';
import * as reports from './0031-reports.js';
import * as offlineMessages from './0023-offline-messages.js';
import * as transcriptRequested from './0032-transcript-requested.js';
import * as messageNavigation from './0034-message-navigation.js';
import * as cannedSearch from './0035-canned-search.js';
import * as ratingLinksAgentTime from './0036-rating-links-agent-time.js';
import * as webhooks from './0030-webhooks.js';
import * as widgetScreens from './0028-widget-screens.js';
import * as capacity from './0029-capacity.js';
import * as routingReads from './0038-routing-reads.js';
import * as timers from './0037-timers.js';

/**
 * The one migration history of both backends, in order. Migrations are
 * forward-only and must stay safe to run while older processes still serve
 * (add columns and indexes; never rename or drop a column in the same release;
 * an index no statement of the older release needs may go).
 */
export function migrationProvider(dialect: SqlDialect): MigrationProvider {
  const all: Record<string, Migration> = {
    '0001-initial': { up: (db) => initial.up(db, dialect) },
    '0002-subscriptions-code-point-order': { up: (db) => subscriptionsCodePoint.up(db, dialect) },
    '0003-realtime': { up: (db) => realtime.up(db, dialect) },
    '0004-livechat-visitor-rooms': { up: (db) => livechatVisitorRooms.up(db, dialect) },
    '0005-rooms-changed-since': { up: (db) => roomsChangedSince.up(db, dialect) },
    '0006-agent-load': { up: (db) => agentLoad.up(db, dialect) },
    '0007-room-search-directory-only': { up: (db) => roomSearchDirectoryOnly.up(db, dialect) },
    '0008-search-unchanged-values': { up: (db) => searchUnchangedValues.up(db, dialect) },
    '0009-agent-pick-index': { up: (db) => agentPickIndex.up(db, dialect) },
    '0010-drop-users-updated-at-index': { up: (db) => dropUsersUpdatedAtIndex.up(db) },
    '0011-room-search-directory-only-pg': { up: (db) => roomSearchDirectoryOnlyPg.up(db, dialect) },
    '0012-rooms-sparse-indexes': { up: (db) => roomsSparseIndexes.up(db) },
    '0013-inquiries-queued-indexes': { up: (db) => inquiriesQueuedIndexes.up(db) },
    '0014-subscriptions-room-seq': { up: (db) => subscriptionsRoomSeq.up(db, dialect) },
    '0015-subscriptions-room-seq-pg': { up: (db) => subscriptionsRoomSeqPg.up(db, dialect) },
    '0016-room-search-fname-differs-pg': { up: (db) => roomSearchFnameDiffersPg.up(db, dialect) },
    '0017-search-backlog': { up: (db) => searchBacklog.up(db, dialect) },
    '0018-jobs': { up: (db) => jobs.up(db) },
    '0019-routing': { up: (db) => routing.up(db) },
    '0020-presence': { up: (db) => presence.up(db) },
    '0021-transfer-data': { up: (db) => transferData.up(db) },
    '0022-email-outbox': { up: (db) => emailOutbox.up(db) },
    '0023-offline-messages': { up: (db) => offlineMessages.up(db) },
    '0024-business-hours': { up: (db) => businessHours.up(db) },
    '0025-files': { up: (db) => files.up(db, dialect) },
    '0026-desk': { up: (db) => desk.up(db) },
    '0027-livechat-search': { up: (db) => livechatSearch.up(db, dialect) },
    '0032-transcript-requested': { up: (db) => transcriptRequested.up(db) },
    '0034-message-navigation': { up: (db) => messageNavigation.up(db) },
    '0030-webhooks': { up: (db) => webhooks.up(db) },
    '0028-widget-screens': { up: (db) => widgetScreens.up(db) },
    '0031-reports': { up: (db) => reports.up(db, dialect) },
    '0029-capacity': { up: (db) => capacity.up(db) },
    '0038-routing-reads': { up: (db) => routingReads.up(db, dialect) },
    '0035-canned-search': { up: (db) => cannedSearch.up(db, dialect) },
    '0036-rating-links-agent-time': { up: (db) => ratingLinksAgentTime.up(db) },
    '0037-timers': { up: (db) => timers.up(db, dialect) },
  };
  return { getMigrations: async () => all };
}
