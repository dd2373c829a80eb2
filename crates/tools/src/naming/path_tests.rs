use super::super::fit;
use super::*;

fn name(method: &str, path: &str) -> String {
    fit(from_method_path(method, path))
}

#[test]
fn shapes_mark_items_casts_and_calls() {
    let s = shape("/v1/users/{id}/memberOf/microsoft.graph.group/$count");
    assert!(s.count);
    assert_eq!(s.segments.len(), 3);
    assert!(s.segments[0].item && !s.segments[1].item);
    assert_eq!(s.segments[2].kind, Kind::Cast);
    let s = shape("/reports/microsoft.graph.getX(period='{period}',dateTime={d})");
    assert_eq!(
        s.segments[1].kind,
        Kind::Call(vec!["period".into(), "date".into(), "time".into()])
    );
    assert_eq!(
        shape("/a/microsoft.graph.accept").segments[1].kind,
        Kind::Call(vec![])
    );
}

#[test]
fn file_extensions_are_formats_not_resources() {
    assert_eq!(name("get", "/api/spec.yaml"), "get_spec");
    assert_eq!(name("delete", "/products/{id}.json"), "delete_product");
    assert_eq!(
        name("post", "/senders/verify-domain.json"),
        "verify_senders_domain"
    );
}

#[test]
fn casts_list_many_and_get_one() {
    assert_eq!(
        name(
            "get",
            "/users/{id}/transitiveMemberOf/microsoft.graph.group"
        ),
        "list_user_transitive_member_of_groups"
    );
    assert_eq!(
        name(
            "get",
            "/users/{id}/transitiveMemberOf/{m}/microsoft.graph.group"
        ),
        "get_user_transitive_member_of_group"
    );
    assert_eq!(
        name("get", "/me/ownedDevices/microsoft.graph.device/$count"),
        "count_me_owned_devices"
    );
}

#[test]
fn a_segment_a_later_one_repeats_goes() {
    assert_eq!(
        name("post", "/v1/accounts/{account}/bank_accounts"),
        "create_bank_account"
    );
    assert_eq!(
        name("get", "/v1/sources/{source}/source_transactions"),
        "list_source_transactions"
    );
    assert_eq!(
        name("get", "/deviceManagement/deviceCompliancePolicies/$count"),
        "count_device_compliance_policies"
    );
    assert_eq!(
        name("get", "/v1/test_helpers/test_clocks"),
        "list_test_clocks"
    );
    assert_eq!(
        name("get", "/sites/{s}/termStore/sets/{t}/terms/$count"),
        "count_site_store_set_terms"
    );
    assert_eq!(
        name("post", "/v1/test_helpers/test_clocks"),
        "create_test_clock"
    );
}

#[test]
fn verb_led_actions_and_calls() {
    assert_eq!(name("post", "/v1/invoices/{invoice}/pay"), "pay_invoice");
    assert_eq!(
        name("post", "/v1/invoices/{invoice}/mark_uncollectible"),
        "mark_invoice_uncollectible"
    );
    assert_eq!(
        name("post", "/v1/tax/transactions/create_from_calculation"),
        "create_tax_transaction_from_calculation"
    );
    assert_eq!(
        name("post", "/v1/terminal/readers/{reader}/set_reader_display"),
        "set_terminal_reader_display"
    );
    // English verbs beyond the API list: `restart`, `interrupt`.
    assert_eq!(name("post", "/kernels/{id}/restart"), "restart_kernel");
    assert_eq!(name("post", "/kernels/{id}/interrupt"), "interrupt_kernel");
    // Not words English uses mostly as nouns.
    assert_eq!(
        name("post", "/accounts/{id}/reports"),
        "create_account_report"
    );
    // The summary's verb, wherever it is in the last segment.
    assert_eq!(
        fit(names_said("post", "/domains/{d}/transferInAccept", Some("accept")).remove(0)),
        "accept_domain_transfer_in"
    );
    assert_eq!(
        fit(names_said("get", "/customers/search", Some("search")).remove(0)),
        "search_customers"
    );
    assert_eq!(
        names(
            "get",
            "/reports/microsoft.graph.getOneDriveActivityUserDetail(date={date})"
        )
        .into_iter()
        .map(fit)
        .collect::<Vec<_>>(),
        [
            "get_one_drive_activity_user_detail",
            "get_reports_one_drive_activity_user_detail"
        ]
    );
}
