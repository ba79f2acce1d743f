// Site health's warnings said in the interface's language from their stable `kind`, `variant`
// and fields (admin/ui/src/health/warning-text.ts fills them); merged into i18n.ts and i18n-ar.ts.
import type { Text } from './i18n.ts';

export const enWarnings = {
  warn_unpublished_link: 'Links to “{link}” ({target}), which is not published.',
  warn_missing_link: 'Links to “{link}”, which does not exist.',
  warn_unpublished_embed: 'Embeds “{link}” ({target}), which is not published: nothing is shown.',
  warn_missing_embed: 'Embeds “{link}”, which does not exist: nothing is shown.',
  warn_missing_attachment: 'Shows or links {link}, which is not in the vault.',
  warn_address_clash: 'Not published: {target} also claims the address {address}, and the older note keeps it.',
  warn_address_clash_attachment: 'Its address {address} is also the attachment {target}: the note is served there and the attachment is not published.',
  warn_reserved_address: 'Not published: its address {address} belongs to the site.',
  warn_reserved_address_not_a_file: 'Not published: its address {address} cannot be a file (a name over 255 bytes, or a “.” or “..” segment).',
  warn_reserved_address_attachment: 'Shows {target}, which is not published: its address {address} belongs to the site.',
  warn_left_out_of_snapshot: 'Links to {target}, which a static snapshot would leave out.',
  warn_left_out_of_snapshot_site_asset: 'The site’s logo or banner would be left out of a static snapshot.',
  warn_unreadable_image: 'The image {target} is shown as it is, without smaller copies.',
  warn_too_many_tags: { one: 'Has 1 tag; only the first {max} are topics on the site.', other: 'Has {count} tags; only the first {max} are topics on the site.' },
  warn_bad_permalink: 'The permalink “{value}” is not an address (a “.” or “..” segment, or a control character); the note keeps {address}.',
  warn_malformed_frontmatter: 'The frontmatter block is malformed and was ignored.',
  warn_nested_repository: '{path}/ is its own git repository: its notes are not in the backup.',
  warn_more: { one: 'And 1 more warning.', other: 'And {count} more warnings.' },
};

export const arWarnings: Partial<Record<keyof typeof enWarnings, Text>> = {
  warn_unpublished_link: 'تربط إلى «{link}» ({target})، وهي غير منشورة.',
  warn_missing_link: 'تربط إلى «{link}»، وهي غير موجودة.',
  warn_unpublished_embed: 'تضمّن «{link}» ({target})، وهي غير منشورة: لا يظهر شيء.',
  warn_missing_embed: 'تضمّن «{link}»، وهي غير موجودة: لا يظهر شيء.',
  warn_missing_attachment: 'تعرض {link} أو تربط إليه، وهو ليس في الخزنة.',
  warn_address_clash: 'غير منشورة: تطلب {target} العنوان {address} أيضًا، والملاحظة الأقدم تحتفظ به.',
  warn_address_clash_attachment: 'عنوانها {address} هو أيضًا عنوان المرفق {target}: تُقدَّم الملاحظة هناك ولا يُنشر المرفق.',
  warn_reserved_address: 'غير منشورة: عنوانها {address} محجوز للموقع.',
  warn_reserved_address_not_a_file: 'غير منشورة: عنوانها {address} لا يصلح اسمًا لملف (اسم يزيد على 255 بايت، أو مقطع «.» أو «..»).',
  warn_reserved_address_attachment: 'تعرض {target}، وهو غير منشور: عنوانه {address} محجوز للموقع.',
  warn_left_out_of_snapshot: 'تربط إلى {target}، وستتركه النسخة الثابتة خارجها.',
  warn_left_out_of_snapshot_site_asset: 'ستترك النسخة الثابتة شعار الموقع أو لافتته خارجها.',
  warn_unreadable_image: 'تُعرض الصورة {target} كما هي، دون نسخ أصغر.',
  warn_too_many_tags: {
    zero: 'لا وسوم فيها.',
    one: 'فيها وسم واحد؛ أول {max} وسمًا فقط مواضيع في الموقع.',
    two: 'فيها وسمان؛ أول {max} وسمًا فقط مواضيع في الموقع.',
    few: 'فيها {count} وسوم؛ أول {max} وسمًا فقط مواضيع في الموقع.',
    many: 'فيها {count} وسمًا؛ أول {max} وسمًا فقط مواضيع في الموقع.',
    other: 'فيها {count} وسم؛ أول {max} وسمًا فقط مواضيع في الموقع.',
  },
  warn_bad_permalink: 'الرابط الدائم «{value}» ليس عنوانًا (فيه مقطع «.» أو «..» أو محرف تحكّم)؛ تبقى الملاحظة في {address}.',
  warn_malformed_frontmatter: 'كتلة البيانات الأمامية مشوّهة فتُجوهلت.',
  warn_nested_repository: '{path}/ مستودع git مستقل: ملاحظاته ليست في النسخة الاحتياطية.',
  warn_more: { zero: 'ولا تحذيرات أخرى.', one: 'وتحذير آخر.', two: 'وتحذيران آخران.', few: 'و{count} تحذيرات أخرى.', many: 'و{count} تحذيرًا آخر.', other: 'و{count} تحذير آخر.' },
};
