import { CurrentPasswordField as CurrentPasswordField_daa67dc6994313da97db51b76be8e8de } from '../../../../src/plugins/accounts/admin/CurrentPasswordField'
import { FormatField as FormatField_a9bca6d9d9364d9b358f145fbaf75944 } from '../../../../src/plugins/content/admin/FormatField'
import { MarkdownEditorField as MarkdownEditorField_8395931071f81c9829e0a6dff406c633 } from '../../../../src/plugins/content/admin/MarkdownEditor'
import { RscEntryLexicalCell as RscEntryLexicalCell_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { RscEntryLexicalField as RscEntryLexicalField_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { LexicalDiffComponent as LexicalDiffComponent_44fe37237e0ebf4470c9990d8cb7b07e } from '@payloadcms/richtext-lexical/rsc'
import { RichTextSaveFeatureClient as RichTextSaveFeatureClient_bcc464444afa130cd26909969f497b76 } from '../../../../src/plugins/content/admin/RichTextSave'
import { FixedToolbarFeatureClient as FixedToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { TableFeatureClient as TableFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { BlocksFeatureClient as BlocksFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { codeConverterClient as codeConverterClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { CodeBlockBlockComponent as CodeBlockBlockComponent_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UploadFeatureClient as UploadFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { HeadingFeatureClient as HeadingFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { BoldFeatureClient as BoldFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ItalicFeatureClient as ItalicFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UnderlineFeatureClient as UnderlineFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { StrikethroughFeatureClient as StrikethroughFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { SubscriptFeatureClient as SubscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { SuperscriptFeatureClient as SuperscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { InlineCodeFeatureClient as InlineCodeFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ParagraphFeatureClient as ParagraphFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { AlignFeatureClient as AlignFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { IndentFeatureClient as IndentFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { UnorderedListFeatureClient as UnorderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { OrderedListFeatureClient as OrderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { ChecklistFeatureClient as ChecklistFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { LinkFeatureClient as LinkFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { RelationshipFeatureClient as RelationshipFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { BlockquoteFeatureClient as BlockquoteFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { HorizontalRuleFeatureClient as HorizontalRuleFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { InlineToolbarFeatureClient as InlineToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864 } from '@payloadcms/richtext-lexical/client'
import { StatusCell as StatusCell_7ad0447a3dec3fafac25311fd69aedb7 } from '../../../../src/plugins/activity/admin/ScheduledNotice'
import { ScheduledNotice as ScheduledNotice_7ad0447a3dec3fafac25311fd69aedb7 } from '../../../../src/plugins/activity/admin/ScheduledNotice'
import { OverviewComponent as OverviewComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { MetaTitleComponent as MetaTitleComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { MetaDescriptionComponent as MetaDescriptionComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { MetaImageComponent as MetaImageComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { PreviewComponent as PreviewComponent_a8a977ebc872c5d5ea7ee689724c0860 } from '@payloadcms/plugin-seo/client'
import { WebhookActions as WebhookActions_f58c31a7a91ffc788785726a341cf34f } from '../../../../src/plugins/webhooks/admin/WebhookActions'
import { WebhookCreator as WebhookCreator_3dfd2181cca43b17537e83e56edfd1d8 } from '../../../../src/plugins/webhooks/admin/WebhookCreator'
import { RedeliverButton as RedeliverButton_f58c31a7a91ffc788785726a341cf34f } from '../../../../src/plugins/webhooks/admin/WebhookActions'
import { AccessTokenCreator as AccessTokenCreator_865358592760737f6c01197d9d3b942c } from '../../../../src/plugins/accessTokens/admin/AccessTokenCreator'
import { UserSwitchHeader as UserSwitchHeader_ebc951dfc2613394e69e6a2a17bd27f7 } from '../../../../src/plugins/userSwitch/admin/UserSwitchHeader'
import { DashboardNavLink as DashboardNavLink_366e83f162092ba4e0a0736108ded095 } from '../../../../src/plugins/dashboard/admin/DashboardNavLink'
import { QueueConsoleNavLink as QueueConsoleNavLink_ed8b982cac06932a097391c4dabb8503 } from '../../../../src/plugins/jobs/admin/QueueConsoleNavLink'
import { ModerationNavLink as ModerationNavLink_c36036ca25a8a26a94bfcf14afea99d5 } from '../../../../src/plugins/moderation/admin/ModerationNavLink'
import { ImportNavLink as ImportNavLink_983108a130281a6aacdfd118ef23d857 } from '../../../../src/plugins/import/admin/ImportNavLink'
import { Dashboard as Dashboard_68047e83e4497add0464910930456677 } from '../../../../src/plugins/dashboard/admin/Dashboard'
import { S3ClientUploadHandler as S3ClientUploadHandler_f97aa6c64367fa259c5bc0567239ef24 } from '@payloadcms/storage-s3/client'
import { QueueConsoleView as QueueConsoleView_cccdd5906f3e908c15edc125b9b7d6c5 } from '../../../../src/plugins/jobs/admin/QueueConsoleView'
import { ModerationQueueView as ModerationQueueView_f7acc208cb000057a94a2d9c0197579d } from '../../../../src/plugins/moderation/admin/ModerationQueueView'
import { ImportView as ImportView_cb54474c4367477bae6e9e17a9b9392c } from '../../../../src/plugins/import/admin/ImportView'
import { UnauthorizedView as UnauthorizedView_47d1c7aabda5d2f1a25bbdd5ac0fa370 } from '../../../../src/plugins/userSwitch/admin/UnauthorizedView'
import { CollectionCards as CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1 } from '@payloadcms/next/rsc'

/** @type import('payload').ImportMap */
export const importMap = {
  "/src/plugins/accounts/admin/CurrentPasswordField#CurrentPasswordField": CurrentPasswordField_daa67dc6994313da97db51b76be8e8de,
  "/src/plugins/content/admin/FormatField#FormatField": FormatField_a9bca6d9d9364d9b358f145fbaf75944,
  "/src/plugins/content/admin/MarkdownEditor#MarkdownEditorField": MarkdownEditorField_8395931071f81c9829e0a6dff406c633,
  "@payloadcms/richtext-lexical/rsc#RscEntryLexicalCell": RscEntryLexicalCell_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/rsc#RscEntryLexicalField": RscEntryLexicalField_44fe37237e0ebf4470c9990d8cb7b07e,
  "@payloadcms/richtext-lexical/rsc#LexicalDiffComponent": LexicalDiffComponent_44fe37237e0ebf4470c9990d8cb7b07e,
  "/src/plugins/content/admin/RichTextSave#RichTextSaveFeatureClient": RichTextSaveFeatureClient_bcc464444afa130cd26909969f497b76,
  "@payloadcms/richtext-lexical/client#FixedToolbarFeatureClient": FixedToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#TableFeatureClient": TableFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#BlocksFeatureClient": BlocksFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#codeConverterClient": codeConverterClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#CodeBlockBlockComponent": CodeBlockBlockComponent_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UploadFeatureClient": UploadFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#HeadingFeatureClient": HeadingFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#BoldFeatureClient": BoldFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ItalicFeatureClient": ItalicFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UnderlineFeatureClient": UnderlineFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#StrikethroughFeatureClient": StrikethroughFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#SubscriptFeatureClient": SubscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#SuperscriptFeatureClient": SuperscriptFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#InlineCodeFeatureClient": InlineCodeFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ParagraphFeatureClient": ParagraphFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#AlignFeatureClient": AlignFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#IndentFeatureClient": IndentFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#UnorderedListFeatureClient": UnorderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#OrderedListFeatureClient": OrderedListFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#ChecklistFeatureClient": ChecklistFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#LinkFeatureClient": LinkFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#RelationshipFeatureClient": RelationshipFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#BlockquoteFeatureClient": BlockquoteFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#HorizontalRuleFeatureClient": HorizontalRuleFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "@payloadcms/richtext-lexical/client#InlineToolbarFeatureClient": InlineToolbarFeatureClient_e70f5e05f09f93e00b997edb1ef0c864,
  "/src/plugins/activity/admin/ScheduledNotice#StatusCell": StatusCell_7ad0447a3dec3fafac25311fd69aedb7,
  "/src/plugins/activity/admin/ScheduledNotice#ScheduledNotice": ScheduledNotice_7ad0447a3dec3fafac25311fd69aedb7,
  "@payloadcms/plugin-seo/client#OverviewComponent": OverviewComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#MetaTitleComponent": MetaTitleComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#MetaDescriptionComponent": MetaDescriptionComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#MetaImageComponent": MetaImageComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "@payloadcms/plugin-seo/client#PreviewComponent": PreviewComponent_a8a977ebc872c5d5ea7ee689724c0860,
  "/src/plugins/webhooks/admin/WebhookActions#WebhookActions": WebhookActions_f58c31a7a91ffc788785726a341cf34f,
  "/src/plugins/webhooks/admin/WebhookCreator#WebhookCreator": WebhookCreator_3dfd2181cca43b17537e83e56edfd1d8,
  "/src/plugins/webhooks/admin/WebhookActions#RedeliverButton": RedeliverButton_f58c31a7a91ffc788785726a341cf34f,
  "/src/plugins/accessTokens/admin/AccessTokenCreator#AccessTokenCreator": AccessTokenCreator_865358592760737f6c01197d9d3b942c,
  "/src/plugins/userSwitch/admin/UserSwitchHeader#UserSwitchHeader": UserSwitchHeader_ebc951dfc2613394e69e6a2a17bd27f7,
  "/src/plugins/dashboard/admin/DashboardNavLink#DashboardNavLink": DashboardNavLink_366e83f162092ba4e0a0736108ded095,
  "/src/plugins/jobs/admin/QueueConsoleNavLink#QueueConsoleNavLink": QueueConsoleNavLink_ed8b982cac06932a097391c4dabb8503,
  "/src/plugins/moderation/admin/ModerationNavLink#ModerationNavLink": ModerationNavLink_c36036ca25a8a26a94bfcf14afea99d5,
  "/src/plugins/import/admin/ImportNavLink#ImportNavLink": ImportNavLink_983108a130281a6aacdfd118ef23d857,
  "/src/plugins/dashboard/admin/Dashboard#Dashboard": Dashboard_68047e83e4497add0464910930456677,
  "@payloadcms/storage-s3/client#S3ClientUploadHandler": S3ClientUploadHandler_f97aa6c64367fa259c5bc0567239ef24,
  "/src/plugins/jobs/admin/QueueConsoleView#QueueConsoleView": QueueConsoleView_cccdd5906f3e908c15edc125b9b7d6c5,
  "/src/plugins/moderation/admin/ModerationQueueView#ModerationQueueView": ModerationQueueView_f7acc208cb000057a94a2d9c0197579d,
  "/src/plugins/import/admin/ImportView#ImportView": ImportView_cb54474c4367477bae6e9e17a9b9392c,
  "/src/plugins/userSwitch/admin/UnauthorizedView#UnauthorizedView": UnauthorizedView_47d1c7aabda5d2f1a25bbdd5ac0fa370,
  "@payloadcms/next/rsc#CollectionCards": CollectionCards_f9c02e79a4aed9a3924487c0cd4cafb1
}
