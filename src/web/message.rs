//! The messages a finished action shows, each written once: htmx shows it at once
//! (`HX-Trigger`), and a plain form's redirect names it for the next page (`?m=code`).

/// Something quire tells the user an action did. Only these fixed texts reach a
/// page from its address, so a link can't make quire show words of someone else's
/// choosing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    Created,
    Saved,
    Merged,
    RevisionRestored,
    Discarded,
    Trashed,
    Restored,
    TrashEmptied,
    FolderRenamed,
    ChosenMoved,
    ChosenTagged,
    ChosenTrashed,
    SharingSaved,
    TokenRevoked,
    PasswordChanged,
    AccountCreated,
    AccountDisabled,
    AccountEnabled,
    PasswordReset,
    AccountRenamed,
    AdminGiven,
    AdminTaken,
    AccountDeleted,
    SignedOut,
    SpaceSaved,
    SpaceRemoved,
    MembersSaved,
    GroupSaved,
    DocumentMoved,
    FolderMoved,
    Welcome,
    PasswordSet,
    Watching,
    NotWatching,
    NoticeRead,
    AllRead,
    NoticesSaved,
    FeedRevoked,
    MailSaved,
    Commented,
    CommentSaved,
    CommentDeleted,
    ThreadResolved,
    ThreadReopened,
    HookSaved,
    HookRemoved,
    HookResent,
    Suggested,
    SuggestionAccepted,
    SuggestionDeclined,
    TemplateOn,
    TemplateOff,
    TemplateDefaultOn,
    TemplateDefaultOff,
}

impl Message {
    /// Every message, for finding one by its code.
    pub const ALL: [Self; 54] = [
        Self::Created,
        Self::Saved,
        Self::Merged,
        Self::RevisionRestored,
        Self::Discarded,
        Self::Trashed,
        Self::Restored,
        Self::TrashEmptied,
        Self::FolderRenamed,
        Self::ChosenMoved,
        Self::ChosenTagged,
        Self::ChosenTrashed,
        Self::SharingSaved,
        Self::TokenRevoked,
        Self::PasswordChanged,
        Self::AccountCreated,
        Self::AccountDisabled,
        Self::AccountEnabled,
        Self::PasswordReset,
        Self::AccountRenamed,
        Self::AdminGiven,
        Self::AdminTaken,
        Self::AccountDeleted,
        Self::SignedOut,
        Self::SpaceSaved,
        Self::SpaceRemoved,
        Self::MembersSaved,
        Self::GroupSaved,
        Self::DocumentMoved,
        Self::FolderMoved,
        Self::Welcome,
        Self::PasswordSet,
        Self::Watching,
        Self::NotWatching,
        Self::NoticeRead,
        Self::AllRead,
        Self::NoticesSaved,
        Self::FeedRevoked,
        Self::MailSaved,
        Self::Commented,
        Self::CommentSaved,
        Self::CommentDeleted,
        Self::ThreadResolved,
        Self::ThreadReopened,
        Self::HookSaved,
        Self::HookRemoved,
        Self::HookResent,
        Self::Suggested,
        Self::SuggestionAccepted,
        Self::SuggestionDeclined,
        Self::TemplateOn,
        Self::TemplateOff,
        Self::TemplateDefaultOn,
        Self::TemplateDefaultOff,
    ];

    /// The message's code (for `?m=`) beside its text.
    const fn words(self) -> (&'static str, &'static str) {
        match self {
            Self::Created => ("created", "Created."),
            Self::Saved => ("saved", "Saved."),
            Self::Merged => (
                "merged",
                "Saved. Someone else saved while you were editing; quire merged \
                 their changes and yours (the history shows both).",
            ),
            Self::RevisionRestored => (
                "revision-restored",
                "Saved: the old revision is now the current text.",
            ),
            Self::Discarded => ("discarded", "Your unsaved changes were discarded."),
            Self::Trashed => (
                "trashed",
                "Moved to the trash. You can restore it from the trash.",
            ),
            Self::Restored => ("restored", "Restored from the trash."),
            Self::TrashEmptied => ("emptied", "The trash is empty."),
            Self::FolderRenamed => (
                "folder-renamed",
                "Folder renamed: the documents you may edit moved with it \
                 (each move is in its history).",
            ),
            Self::ChosenMoved => ("chosen-moved", "The chosen documents were moved."),
            Self::ChosenTagged => (
                "chosen-tagged",
                "The tags were added to the chosen documents.",
            ),
            Self::ChosenTrashed => (
                "chosen-trashed",
                "The chosen documents were moved to the trash. \
                 You can restore them from the trash.",
            ),
            Self::SharingSaved => ("sharing-saved", "Sharing saved."),
            Self::TokenRevoked => ("token-revoked", "Token revoked."),
            Self::PasswordChanged => (
                "password-changed",
                "Password changed. Your other sessions have been signed out.",
            ),
            Self::AccountCreated => ("account-created", "Account created."),
            Self::AccountDisabled => (
                "account-disabled",
                "Account disabled and signed out everywhere.",
            ),
            Self::AccountEnabled => ("account-enabled", "Account enabled."),
            Self::PasswordReset => (
                "password-reset",
                "Password reset; the account was signed out everywhere.",
            ),
            Self::AccountRenamed => ("account-renamed", "Account renamed."),
            Self::AdminGiven => ("admin-given", "Administrator rights given."),
            Self::AdminTaken => ("admin-taken", "Administrator rights taken."),
            Self::AccountDeleted => (
                "account-deleted",
                "Account deleted; its documents have their new owner.",
            ),
            Self::SignedOut => ("signed-out", "Signed out."),
            Self::SpaceSaved => ("space-saved", "Space saved."),
            Self::SpaceRemoved => (
                "space-removed",
                "Space removed: its documents are back in their owners' personal spaces.",
            ),
            Self::MembersSaved => ("members-saved", "Members saved."),
            Self::GroupSaved => ("group-saved", "Group saved."),
            Self::DocumentMoved => ("document-moved", "Moved: who can read it changed as shown."),
            Self::FolderMoved => (
                "folder-moved",
                "Folder moved: who can read its documents changed as shown.",
            ),
            Self::Welcome => ("welcome", "Welcome to quire: your account is ready."),
            Self::PasswordSet => ("password-set", "Your new password is set; sign in with it."),
            Self::Watching => ("watching", "Watching: changes here reach your inbox."),
            Self::NotWatching => (
                "not-watching",
                "No longer watching: changes here stay out of your inbox.",
            ),
            Self::NoticeRead => ("notice-read", "Marked read."),
            Self::AllRead => ("all-read", "Every notice is marked read."),
            Self::NoticesSaved => ("notices-saved", "Your notice settings are saved."),
            Self::FeedRevoked => (
                "feed-revoked",
                "Your feed is off: its address no longer works.",
            ),
            Self::MailSaved => ("mail-saved", "Your mail settings are saved."),
            Self::Commented => ("commented", "Comment added."),
            Self::CommentSaved => ("comment-saved", "Comment changed."),
            Self::CommentDeleted => ("comment-deleted", "Comment deleted."),
            Self::ThreadResolved => ("thread-resolved", "Marked resolved."),
            Self::ThreadReopened => ("thread-reopened", "Opened again."),
            Self::HookSaved => (
                "hook-saved",
                "Webhook saved: events are posted to it from now on.",
            ),
            Self::HookRemoved => ("hook-removed", "Webhook removed."),
            Self::HookResent => ("hook-resent", "It will be sent again in a moment."),
            Self::Suggested => (
                "suggested",
                "Suggested: those who may edit it review it, and you are told what they decide.",
            ),
            Self::SuggestionAccepted => (
                "suggestion-accepted",
                "Accepted: the suggested edit is saved (the history names who suggested it).",
            ),
            Self::SuggestionDeclined => ("suggestion-declined", "Declined: its author is told."),
            Self::TemplateOn => (
                "template-on",
                "It is a template: the New page offers it to everyone who may read it.",
            ),
            Self::TemplateOff => ("template-off", "It is no longer a template."),
            Self::TemplateDefaultOn => (
                "template-default-on",
                "New documents there start from this template.",
            ),
            Self::TemplateDefaultOff => (
                "template-default-off",
                "New documents there no longer start from this template.",
            ),
        }
    }

    /// What a redirect carries in `?m=` for this message.
    pub const fn code(self) -> &'static str {
        self.words().0
    }

    /// What the user reads, with JavaScript or without.
    pub const fn text(self) -> &'static str {
        self.words().1
    }

    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.code() == code)
    }

    /// The message a page's query string names (`m=code`), if any.
    pub fn from_query(query: &str) -> Option<Self> {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix("m="))
            .and_then(Self::from_code)
    }
}

#[cfg(test)]
mod tests {
    use super::Message;

    #[test]
    fn each_code_names_its_own_message() {
        for m in Message::ALL {
            assert_eq!(Message::from_code(m.code()), Some(m), "{m:?}");
        }
        assert_eq!(Message::from_code("nonsense"), None);
        assert_eq!(Message::from_code(""), None);
    }

    #[test]
    fn the_query_names_a_message_among_other_fields() {
        let named = Message::from_query("folder=Archive%2F2024&m=folder-renamed");
        assert_eq!(named, Some(Message::FolderRenamed));
        assert_eq!(Message::from_query("m=saved"), Some(Message::Saved));
        assert_eq!(Message::from_query("sort=title"), None);
        assert_eq!(Message::from_query("m=%3Cb%3E"), None);
    }

    /// The htmx answer puts the text in a JSON string in a header, unescaped.
    #[test]
    fn texts_go_into_a_header_and_json_as_they_are() {
        for m in Message::ALL {
            let text = m.text();
            assert!(
                text.chars().all(|c| c.is_ascii_graphic() || c == ' ')
                    && !text.contains(['"', '\\']),
                "{m:?}: {text}"
            );
            assert!(m.code().chars().all(|c| c.is_ascii_lowercase() || c == '-'));
        }
    }
}
