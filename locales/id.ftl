# Teks berformat HTML (parse_mode HTML Telegram); variabel sudah di-escape oleh bot.

## Perintah (menu Telegram)
command-start = Mulai dan lihat apa yang bisa dilakukan
command-order = Pesan top-up
command-cancel = Batalkan pesanan yang sedang berjalan
command-help = Bantuan

## Mulai dan bantuan
start-greeting = Halo { $name }! Saya melayani top-up item game untuk toko ini: pilih produk, kirim ID pemain, konfirmasi, dan nomor seri (SN) langsung dikirim di sini.
help-heading = Yang bisa Anda lakukan:
help-order = /order: pesan top-up langkah demi langkah
help-order-line = /order KODE ID_PEMAIN: pesan dalam satu baris, mis. <code>/order { $exampleCode } { $examplePlayer }</code>
help-cancel = /cancel: batalkan pesanan yang sedang berjalan
help-pricelist = /pricelist: daftar produk dan harga Anda
help-balance = /balance: saldo toko setelah penjualan terakhir (di chat pribadi)
help-saldo-own = /saldo: saldo Anda dan mutasi terakhirnya (di chat pribadi)
help-history = /history: pesanan Anda
help-status = /status REF_ID: posisi satu pesanan
help-language = /language: English atau Bahasa Indonesia
help-help = /help: cara memesan
help-admin-heading = <b>Admin</b>
help-report = /report [kemarin|YYYY-MM-DD]: penjualan sehari (◀ ▶ untuk hari sebelum dan sesudahnya), CSV
help-insights = /top [hari ini|minggu|bulan]: produk dan reseller terlaris · /compare: bulan ini dibanding bulan lalu · /hours: jam pesanan masuk
help-export = /export [YYYY-MM]: pesanan bulan ini (atau bulan itu) sebagai file CSV, dengan tombol Excel; /export xlsx [YYYY-MM]: langsung file Excel
help-pending = /pending: pesanan yang hasilnya belum diketahui, /settle
help-users = /users, /allow ID [reseller], /deny ID: siapa yang boleh memesan
help-resellers = /deposit ID JUMLAH, /saldo ID|all, /tier ID NAMA: reseller
help-prices = /price KODE JUMLAH [TIER], /disable KODE, /enable KODE: harga
help-catalog = /catalog: katalog sebagai file, untuk diubah dan dikirim kembali
help-pause = /pause [ALASAN], /resume: toko
help-broadcast = /broadcast TEKS: pesan ke semua pengguna
help =
    <b>Cara memesan</b>
    1. Kirim /order lalu pilih game dan produk (atau ketik kodenya).
    2. Kirim ID pemain.
    3. Periksa ringkasan lalu ketuk <b>Konfirmasi</b>. Tidak ada yang dipesan sebelum itu, dan satu pesanan hanya dikirim sekali walau diketuk dua kali.
    Anda akan menerima nama pemain, nomor seri (SN), dan ID transaksi, serta tombol Struk untuk pelanggan.
help-products = Produk: { $codes }

## Akses
access-refused = Maaf, Anda tidak dapat memesan lewat bot ini. ID pengguna Telegram Anda <code>{ $userId }</code>: kirimkan ke admin toko untuk mendapatkan akses.
access-refused-alert = Anda tidak dapat memesan lewat bot ini. ID pengguna Telegram Anda { $userId }: kirimkan ke admin toko.

## Memilih produk
order-choose-game = Pilih game, atau ketik kode produk:
order-choose-product = <b>{ $game }</b>: pilih produk, atau ketik kodenya:
order-button-back = « Semua game
order-unknown-code = Tidak ada produk dengan kode <b>{ $code }</b>. Ketuk tombol atau ketik kode dari daftar.
order-expect-choice = Ketuk tombol di atas atau ketik kode produk. /cancel untuk membatalkan.
order-menu-closed = Menu ini sudah ditutup. Kirim /order untuk memulai pesanan baru.
order-chosen = Produk: <b>{ $code }</b> · { $product }

## ID pemain
order-ask-player =
    <b>{ $code }</b> · { $product } ({ $game })
    Kirim ID pemain, contoh <code>{ $example }</code>
order-ask-player-any =
    <b>{ $code }</b> · { $product } ({ $game })
    Kirim ID pemain (tanpa spasi).
order-bad-player = <code>{ $input }</code> bukan ID pemain yang valid untuk { $game }. Formatnya seperti <code>{ $example }</code>. Silakan kirim lagi:
order-bad-player-any = <code>{ $input }</code> bukan ID pemain yang valid: gunakan 1 sampai 64 karakter tanpa spasi. Silakan kirim lagi:
order-expect-text = Silakan kirim ID pemain sebagai teks. /cancel untuk membatalkan.
order-tap-not-now = Silakan kirim ID pemain sebagai pesan.

## Ringkasan
order-summary =
    <b>Periksa pesanan Anda</b>
    Produk: <b>{ $code }</b> · { $product } ({ $game })
    ID pemain: <code>{ $playerId }</code>
    Harga: { $price }
    Ref pesanan: <code>{ $refId }</code>
order-summary-hint = Ketuk <b>Konfirmasi</b> untuk memesan. Tidak ada yang dipesan sebelum itu.
order-summary-reseller =
    <b>Periksa pesanan Anda</b>
    Produk: <b>{ $code }</b> · { $product } ({ $game })
    ID pemain: <code>{ $playerId }</code>
    Harga Anda: <b>{ $price }</b>
    Ref pesanan: <code>{ $refId }</code>
order-summary-saldo = Saldo Anda: { $saldo } → setelah pesanan ini { $after }
order-summary-saldo-short = Saldo Anda: { $saldo }
order-summary-hint-short = ⚠️ Saldo Anda kurang dari { $price }: isi saldo dulu (/deposit di chat pribadi, atau minta ke admin toko), lalu ketuk <b>Konfirmasi</b>. Tidak ada yang dipesan sebelum itu.
order-price-none = belum ditentukan
button-confirm = ✅ Konfirmasi
button-cancel = ✖ Batal
order-open-draft = Ketuk <b>Konfirmasi</b> atau <b>Batal</b> pada ringkasan di atas, atau kirim /order untuk mulai lagi.

## Konfirmasi
callback-processing = Pesanan sedang diproses…
summary-processing = ⏳ Sedang diproses… mohon tunggu, jangan pesan ulang.
summary-success = ✅ Selesai: hasilnya di bawah.
summary-success-sn = ✅ Selesai: SN <code>{ $sn }</code>. Hasilnya di bawah.
summary-failed = ❌ Gagal: hasilnya di bawah.
summary-unknown = ⚠️ Hasil belum diketahui (pending): lihat di bawah.
summary-cancelled = ✖ Dibatalkan. Tidak ada yang dipesan.
order-success = ✅ <b>Top-up berhasil</b>
order-success-settled = ✅ <b>Top-up berhasil</b> (diperiksa admin ke provider)
line-product = Produk: <b>{ $code }</b> · { $product }
line-player = Pemain: <b>{ $playerName }</b> (<code>{ $playerId }</code>)
line-player-id = ID pemain: <code>{ $playerId }</code>
line-sn = SN: <code>{ $sn }</code>
line-balance = Sisa saldo: { $balance }
line-trx = ID transaksi: <code>{ $trxId }</code>
line-ref = Ref ID: <code>{ $refId }</code>
line-partner-ref = Ref_id mitra: <code>{ $partnerRef }</code>
line-provider = Provider: <b>{ $provider }</b> · ref <code>{ $refId }</code>
line-provider-refused = Ditolak { $provider } · ref <code>{ $refId }</code>: { $errorCode }
provider-not-sent = tidak terkirim
line-saldo = Sisa saldo Anda: { $saldo }
line-saldo-released = Harga ({ $price }) sudah kembali ke saldo Anda: { $saldo }
line-saldo-held = { $price } tetap ditahan dari saldo Anda sampai hasilnya diketahui.
line-error-code = Kode error: <code>{ $errorCode }</code>
line-error-msg = Pesan: { $errorMsg }
line-reason = Alasan: { $reason }
order-order-again = Anda bisa memesan lagi dengan /order.
order-try-again = Anda bisa mencoba lagi dengan /order.
order-failed = ❌ <b>Pesanan gagal</b>: ditolak oleh provider.
order-failed-no-message = (tidak ada)
order-failed-reseller = ❌ <b>Pesanan gagal</b>: tidak ada yang terisi.
line-price-returned = Harga ({ $price }) sudah kembali ke saldo Anda.
order-not-sent = ❌ <b>Pesanan tidak terkirim</b>: provider tidak dapat dihubungi, jadi tidak ada yang dipesan.
order-unknown =
    ⚠️ <b>Hasil belum diketahui (pending)</b>: { $reason }.
    Pesanan mungkin sudah atau belum diproses. Pesanan ini <b>tidak</b> akan dikirim ulang otomatis; admin akan memeriksanya ke provider.
reason-timeout = provider tidak menjawab tepat waktu
reason-connection-lost = koneksi terputus setelah pesanan dikirim
reason-not-json = jawaban provider tidak dapat dibaca
reason-malformed = jawaban provider tidak lengkap
reason-status-not-sukses = provider melaporkan status "{ $status }"
reason-ref-id-already-exists = provider sudah memiliki pesanan dengan ref ID ini
reason-interrupted = bot dimulai ulang saat pesanan sedang dikirim
reason-server-error = server provider melaporkan kesalahan saat memproses pesanan
reason-upstream-unknown = provider belum mengetahui hasilnya
order-already-heading = Pesanan ini sudah dibuat; berikut hasilnya:
order-in-progress = ⏳ Pesanan <code>{ $refId }</code> sedang diproses. Hasilnya akan dikirim di sini.
callback-in-progress = Pesanan ini sedang diproses.
callback-already-success = Sudah dipesan: berhasil, SN { $sn }.
callback-already-success-no-sn = Sudah dipesan: berhasil.
callback-already-failed = Sudah dipesan: gagal ({ $errorCode }).
callback-already-failed-returned = Sudah dipesan: gagal, dan harganya ({ $price }) sudah kembali ke saldo Anda.
callback-already-unknown = Sudah dipesan: hasil belum diketahui (pending).
callback-cancelled = Pesanan ini sudah dibatalkan. Kirim /order untuk mulai lagi.
callback-saldo-short = Saldo tidak cukup: saldo Anda { $saldo }, pesanan ini { $price }. Tidak ada yang dipesan.
order-saldo-short = ⚠️ Saldo tidak cukup: saldo Anda <b>{ $saldo }</b>, pesanan ini <b>{ $price }</b>. Tidak ada yang dipesan. Minta deposit ke admin toko, lalu ketuk <b>Konfirmasi</b> lagi.
order-saldo-short-deposit = ⚠️ Saldo tidak cukup: saldo Anda <b>{ $saldo }</b>, pesanan ini <b>{ $price }</b>. Tidak ada yang dipesan. Isi saldo di chat pribadi dengan <code>/deposit { $amount }</code>, lalu ketuk <b>Konfirmasi</b> lagi.
callback-expired = Pesanan ini sudah kedaluwarsa. Kirim /order untuk mulai lagi.
callback-not-yours = Tombol ini milik pesanan orang lain.
callback-invalid = Tombol ini sudah tidak berlaku.

## Batal
order-cancelled = ✖ Dibatalkan. Tidak ada yang dipesan.
order-cancel-too-late = Sudah terlambat untuk membatalkan: pesanan sudah dikirim.
cancel-nothing = Tidak ada yang perlu dibatalkan.

## Lainnya
fallback = Kirim /order untuk memesan top-up, atau /help untuk bantuan.
unknown-command = Saya tidak mengenal perintah itu. /help berisi daftar perintah.
error-generic = Maaf, ada gangguan di sisi kami. Silakan coba lagi.
error-unavailable = Bot sedang tidak tersedia untuk sementara. Silakan coba lagi sebentar lagi.

## Menu perintah, lanjutan
command-balance = Saldo mitra setelah penjualan terakhir
command-history = Pesanan Anda
command-language = Bahasa / Language
command-report = Laporan penjualan harian
command-top = Terlaris hari, minggu atau bulan ini
command-compare = Bulan ini dibanding bulan lalu
command-hours = Jam pesanan masuk
command-export = Pesanan bulan ini sebagai file CSV
command-pending = Pesanan dengan hasil belum diketahui
command-users = Siapa yang boleh memesan
command-allow = Izinkan pengguna memesan
command-deny = Cabut izin memesan
command-settle = Selesaikan pesanan yang hasilnya belum diketahui
command-saldo = Saldo Anda (reseller) / saldo reseller
command-deposit = Catat deposit reseller (admin) / minta deposit (reseller)
command-tier = Tier harga reseller
## Hasil (singkat)
outcome-success = ✅ berhasil
outcome-failed = ❌ gagal
outcome-unknown = ⚠️ belum diketahui (pending)
outcome-submitting = ⏳ diproses
outcome-cancelled = ✖ dibatalkan
value-none = –

## Pemberitahuan untuk admin
notice-heading-success = 🧾 <b>Penjualan</b> oleh { $user } (<code>{ $userId }</code>)
notice-heading-failed = ❌ <b>Pesanan gagal</b> oleh { $user } (<code>{ $userId }</code>)
notice-heading-unknown = ⚠️ <b>Pesanan dengan hasil belum diketahui</b> oleh { $user } (<code>{ $userId }</code>)
notice-order =
    Produk: <b>{ $code }</b> · { $product }
    Pemain: { $playerName } (<code>{ $playerId }</code>)
    Harga: { $price }
    Hasil: { $outcome }
    SN: <code>{ $sn }</code>
    Saldo setelahnya: { $balance }
    Ref ID: <code>{ $refId }</code>
notice-settled = Diselesaikan oleh admin { $adminName }<code>{ $adminId }</code>.
notice-reseller = Reseller (tier { $tier }), dibayar dari saldo: { $price }
notice-reseller-margin = Reseller (tier { $tier }) membayar { $price } · harga provider { $cost } · margin { $margin }
notice-reseller-held = Reseller (tier { $tier }): { $price } tetap ditahan dari saldonya sampai hasilnya diketahui.
notice-reseller-released = Reseller (tier { $tier }): { $price } sempat ditahan dan sudah kembali ke saldonya (tidak ada yang dibayar).
notice-not-sent = Tidak dikirim ke provider (tidak ada yang ditagih).
provider-empty-alert = 🚨 <b>Deposit toko di provider habis</b>: pesanan <code>{ $refId }</code> ditolak dengan <code>{ $errorCode }</code> ({ $errorMsg }). Semua pesanan gagal sampai deposit diisi; /pause memberi tahu pengguna sementara itu.
provider-resting-alert = 💤 <b>Provider { $provider } diistirahatkan</b>: tiga pesanan berturut-turut tidak mendapat jawaban pasti darinya. Pesanan dialihkan ke provider berikutnya untuk tiap produk sampai { $until }; lalu satu pesanan mencobanya lagi. Tidak perlu tindakan.
provider-resting-empty-alert = 💤 <b>Provider { $provider } diistirahatkan</b>: provider itu mengatakan deposit toko di sana habis. Pesanan dialihkan ke provider berikutnya untuk tiap produk sampai { $until }; lalu satu pesanan mencobanya lagi. Isi deposit di sana.
provider-back-alert = ✅ <b>Provider { $provider } menjawab lagi</b>: pesanan kembali dikirim ke sana seperti biasa.
sandbox-note = 🧪 <i>Sandbox: uji coba dengan provider tes bawaan. Tidak ada yang di-top up dan tidak ada uang yang berpindah.</i>
deposit-credited =
    💰 <b>Deposit masuk</b>: { $amount }
    Saldo Anda: <b>{ $saldo }</b>
    Ref: <code>{ $id }</code>
deposit-corrected =
    💰 <b>Koreksi saldo</b>: − { $amount }
    Saldo Anda: <b>{ $saldo }</b>
    Ref: <code>{ $id }</code>
deposit-note = Catatan: { $note }
low-balance-alert = ⚠️ <b>Saldo menipis</b>: { $balance } setelah pesanan <code>{ $refId }</code>, di bawah batas { $threshold }. Segera isi saldo mitra.
alert-at-provider =
    { $alert }
    Provider: <b>{ $provider }</b>

## /balance
balance-none = Belum ada penjualan: saldo diketahui setelah pesanan pertama yang berhasil.
balance-known =
    Saldo mitra: <b>{ $balance }</b>
    Terlihat pada { $time }, setelah pesanan <code>{ $refId }</code>.
balance-providers-title = <b>Saldo mitra</b> (tiap provider, setelah penjualan terakhirnya):
balance-provider = • { $provider }: <b>{ $balance }</b>, terlihat pada { $time } setelah pesanan <code>{ $refId }</code>
balance-provider-none = • { $provider }: belum ada penjualan

## /history
history-title = <b>{ $scope }</b>: halaman { $page } dari { $pages } ({ $total } pesanan)
history-scope-mine = Pesanan Anda
history-scope-all = Semua pesanan
history-empty = Belum ada pesanan.
history-line =
    { $time } · <code>{ $refId }</code>
    { $code } · { $product } → <code>{ $playerId }</code>
    { $outcome }
history-line-sn = SN <code>{ $sn }</code>
history-line-partner-ref = ref_id mitra <code>{ $partnerRef }</code>
history-line-user = oleh { $user }
history-line-provider = lewat { $provider }
history-line-refused = ditolak { $providers }
history-newer = « Lebih baru
history-older = Lebih lama »

## /report
admin-only = Perintah ini khusus admin.
report-usage = Gunakan /report untuk hari ini, <code>/report kemarin</code> (atau <code>yesterday</code>), atau /report YYYY-MM-DD, mis. <code>/report 2026-11-23</code>.
report-title = <b>Laporan penjualan { $date }</b> ({ $tz })
report-empty = Tidak ada pesanan pada { $date }.
report-counts = Pesanan: { $total } (✅ { $success } · ❌ { $failed } · ⚠️ { $unknown } · ⏳ { $submitting })
report-totals =
    Harga jual: { $selling }
    Harga provider: { $provider }
    Margin: { $margin }
report-by-product = <b>Per produk</b> (penjualan berhasil)
report-by-user = <b>Per pengguna</b> (penjualan berhasil)
report-by-provider = <b>Per provider</b> (pesanan dengan hasil di sana; biaya dan margin penjualannya)
report-provider-line = { $name }: { $count } pesanan · terjual { $selling } − biaya { $provider } = { $margin }
report-provider-line-unpriced = { $name }: { $count } pesanan · terjual { $selling } − biaya { $provider } = { $margin } (dan { $unpriced } terjual dengan harga provider tak diketahui, tidak dihitung)
report-line = { $name }: { $count } × · { $selling } − { $provider } = { $margin }
report-line-unpriced = { $name }: { $count } × · { $selling } − { $provider } = { $margin } (ditambah { $unpriced } terjual dengan harga provider yang tidak diketahui, tidak dihitung)
report-line-all-unpriced = { $name }: { $count } × · { $unpriced } terjual dengan harga provider tidak diketahui (margin tidak dihitung)
report-loss = { $line } 🔻 <b>rugi</b>: terjual di bawah harga provider
report-unpriced = ⚠️ { $count } penjualan ({ $selling }) tanpa harga provider yang diketahui (diselesaikan tanpa harga): tidak dihitung dalam margin.
report-api = 🔌 Lewat API H2H: { $sold } terjual, { $revenue }{ $failed ->
    [0] {""}
   *[other] {" "}({ $failed } gagal)
}
report-by-reseller = <b>Reseller</b> (penjualan dengan harga mereka, laba, deposit)
report-reseller-line = { $name }, tier { $tier }: { $count } × · penjualan { $sales } · laba { $profit } · deposit { $deposits }
report-csv-button = 📄 CSV { $date }
report-csv-caption = Pesanan { $date }: { $count }
report-day-before = ◀ { $date }
report-day-after = { $date } ▶


## /top, /hours and /compare: the owner's questions
top-usage = Gunakan /top untuk bulan ini, atau <code>/top hari ini</code>, <code>/top minggu</code>, <code>/top bulan</code> (juga <code>today</code>, <code>week</code>, <code>month</code>).
top-title-day = <b>Terlaris { $date }</b>
top-title-week = <b>Terlaris minggu { $from } – { $to }</b>
top-title-month = <b>Terlaris { $month }</b>
top-totals = { $count } penjualan · omzet { $selling } · margin { $margin }
top-unpriced = Margin tidak menghitung { $count } penjualan dengan harga provider yang tidak diketahui ({ $selling }).
top-none = Tidak ada penjualan pada periode ini.
top-products = <b>Produk</b> (menurut omzet)
top-product-line = { $rank }. { $name }: { $count } × · { $selling } · margin { $margin }
top-resellers = <b>Reseller</b> (menurut penjualan dengan harga mereka)
top-reseller-line = { $rank }. { $name }{ $userId }: { $count } × · { $sales } · laba { $profit }
top-no-resellers = Tidak ada penjualan reseller pada periode ini.
top-button-day = Hari
top-button-week = Minggu
top-button-month = Bulan
top-button-before = ◀ Sebelumnya
top-button-after = Berikutnya ▶
compare-title = <b>{ $month } sejauh ini dibanding { $before }</b> (tanggal 1 sampai { $days } masing-masing)
compare-sales = Penjualan: { $now } (bulan lalu { $before }) { $change }
compare-selling = Omzet: { $now } (bulan lalu { $before }) { $change }
compare-margin = Margin: { $now } (bulan lalu { $before }) { $change }
compare-up = ▲ { $percent } %
compare-down = ▼ { $percent } %
compare-same = = 0 %
compare-none = (tidak ada pembanding)
compare-unpriced = Margin tidak menghitung penjualan dengan harga provider yang tidak diketahui.
hours-usage = Gunakan /hours untuk bulan ini, atau <code>/hours hari ini</code>, <code>/hours minggu</code>, <code>/hours bulan</code> (juga <code>today</code>, <code>week</code>, <code>month</code>).
hours-title-day = <b>Jam pesanan masuk { $date }</b>
hours-title-week = <b>Jam pesanan masuk minggu { $from } – { $to }</b>
hours-title-month = <b>Jam pesanan masuk { $month }</b>
hours-none = Tidak ada pesanan pada periode ini.
hours-totals = { $count } pesanan dikirim (zona waktu toko)
hours-busiest = <b>Jam tersibuk</b>
hours-busy-line = { $from }–{ $to }: { $count } pesanan · { $provider } di provider
hours-advice = Isi penuh deposit provider sebelum pukul { $hour }.

## /export
export-usage = Gunakan /export untuk bulan ini, <code>/export bulan lalu</code>, atau /export YYYY-MM, mis. <code>/export 2026-03</code>: pesanan bulan itu (zona waktu toko) sebagai file CSV.
export-empty = Tidak ada pesanan pada { $month }.
export-too-many = { $month } punya { $count } pesanan: terlalu banyak untuk satu file. Gunakan /report YYYY-MM-DD dan tombol CSV-nya untuk tiap hari.
export-caption = Pesanan { $month } ({ $tz }): { $count }
export-caption-gzip = Pesanan { $month } ({ $tz }): { $count } (gzip: buka dengan aplikasi unzip apa saja atau spreadsheet yang bisa membaca .gz)
export-month-button = 📄 Bulan lalu: { $month }

## /pending dan penyelesaian
pending-none = Tidak ada pesanan dengan hasil yang belum diketahui.
pending-title = <b>Pesanan dengan hasil belum diketahui</b>: { $count }
pending-line =
    <code>{ $refId }</code> · { $time }
    { $code } · { $product } → <code>{ $playerId }</code>, oleh { $user }
    Sebab: { $reason }
pending-help = Periksa satu per satu di dasbor provider, lalu selesaikan dengan tombolnya, atau dengan <code>/settle REF_ID success SN</code> atau <code>/settle REF_ID failed ALASAN</code>.
button-settle-success = ✅ Berhasil
button-settle-failed = ❌ Gagal
settle-ask-sn = Kirim SN pesanan <code>{ $refId }</code> dari dasbor provider, atau /cancel. Jika Anda tahu harga dari provider, tambahkan setelah SN (<code>SN 19350</code>): dipakai untuk margin; tanpa itu, harga terakhir yang terlihat untuk produk ini yang dipakai.
settle-ask-reason = Kirim alasan pesanan <code>{ $refId }</code> gagal, atau /cancel.
settle-bad-sn = SN berisi 1 sampai 64 karakter tanpa spasi. Kirim lagi, atau /cancel.
settle-bad-reason = Kirim alasannya sebagai teks (maksimal 200 karakter), atau /cancel.
settle-bad-cost = Harga provider setelah SN harus rupiah bulat, paling banyak 100.000.000 (misalnya <code>SN123 19350</code>). Kirim lagi, atau /cancel.
settle-cost-last-seen = Biayanya untuk margin: { $cost }, harga provider terakhir yang terlihat untuk produk ini sebelum pesanan dikirim.
settle-cost-given = Biayanya untuk margin: { $cost }, sesuai yang Anda berikan.
settle-cost-unknown = Harga providernya tidak diketahui (belum pernah terlihat untuk produk ini), jadi marginnya tidak dihitung dalam laporan. Lain kali tambahkan setelah SN.
pending-cost = Harga provider terakhir yang terlihat: { $cost } (dipakai sebagai biayanya jika Anda selesaikan sebagai berhasil tanpa harga).
pending-cost-unknown = Belum ada harga provider yang terlihat: berikan setelah SN (<code>/settle REF_ID success SN HARGA</code>), atau marginnya tetap tidak diketahui.
pending-cost-answer = Harga provider dalam jawabannya: { $cost } (dipakai sebagai biayanya jika Anda selesaikan sebagai berhasil).
settle-usage = Gunakan <code>/settle REF_ID success SN [HARGA_PROVIDER]</code> atau <code>/settle REF_ID failed ALASAN</code>.
settle-done = Pesanan <code>{ $refId }</code> diselesaikan sebagai { $outcome }.
settle-told-user = Pengguna sudah diberi tahu.
settle-told-callback = Pesanan ini lewat API H2H: sistem mitra menerima callback berisi hasilnya (diulang sampai dijawab). Pengguna tidak dikirimi pesan.
settle-told-nothing = Pesanan ini lewat API H2H dan mitra tidak punya URL callback: tidak ada yang dikirim; mitra melihat hasilnya saat menanyakan status.
settle-at-provider = Provider: <b>{ $provider }</b>, ref id di sana <code>{ $attemptRef }</code>
settle-not-found = Tidak ada pesanan <code>{ $refId }</code>.
settle-several = <code>{ $id }</code> menunjuk beberapa pesanan: tidak ada yang diselesaikan. Selesaikan masing-masing dengan ref id toko:
    { $refIds }
settle-not-pending = Pesanan <code>{ $refId }</code> tidak sedang pending (status: { $outcome }); tidak ada yang diubah.
order-settled-heading = Admin sudah memeriksa pesanan ini ke provider. Hasil akhirnya:
order-failed-settled = ❌ <b>Pesanan gagal</b> (sudah diperiksa admin ke provider).
order-success-by-provider = ✅ <b>Top-up berhasil</b> (dikonfirmasi status provider)
order-failed-by-provider = ❌ <b>Pesanan gagal</b> (menurut status provider).
order-provider-heading = Provider sudah mengonfirmasi hasil pesanan ini. Hasil akhirnya:
## /allow, /deny, /users
allow-usage = Gunakan <code>/allow USER_ID</code> (staf: memesan dengan akun toko) atau <code>/allow USER_ID reseller</code> (membayar dari saldo sendiri). Pengguna melihat ID-nya saat mengirim /start.
deny-usage = Gunakan <code>/deny USER_ID</code>.
allow-done = Pengguna { $name }<code>{ $userId }</code> sekarang boleh memesan, sebagai staf (akun toko).
allow-done-reseller = Pengguna { $name }<code>{ $userId }</code> sekarang reseller (tier reseller, saldo Rp 0): terima deposit dengan /deposit.
allow-changed-reseller = Pengguna { $name }<code>{ $userId }</code> sekarang reseller, bukan staf lagi.
allow-changed-staff = Pengguna { $name }<code>{ $userId }</code> sekarang staf, bukan reseller lagi (saldonya tetap tercatat).
allow-already = Pengguna { $name }<code>{ $userId }</code> sudah boleh memesan, dengan peran itu.
allow-from-env = Pengguna { $name }<code>{ $userId }</code> punya peran lain dari konfigurasi (ADMIN_IDS, ALLOWED_USER_IDS atau RESELLER_IDS); ubah di sana.
deny-done = Pengguna { $name }<code>{ $userId }</code> tidak boleh memesan lagi.
deny-not-listed = Pengguna { $name }<code>{ $userId }</code> tidak diizinkan lewat chat; tidak ada yang berubah.
deny-is-admin = Pengguna { $name }<code>{ $userId }</code> adalah admin (ADMIN_IDS) dan tidak bisa dicabut di sini.
deny-from-env = Pengguna { $name }<code>{ $userId }</code> diizinkan oleh ALLOWED_USER_IDS atau RESELLER_IDS; hapus di sana.
users-title = <b>Siapa yang boleh memesan</b>
users-line = { $name }<code>{ $userId }</code>: { $role }
users-from-admin-ids = ADMIN_IDS
users-from-allowed-ids = ALLOWED_USER_IDS
users-from-reseller-ids = RESELLER_IDS
users-from-chat = diizinkan lewat chat oleh <code>{ $addedBy }</code>, { $time }
users-reseller = tier { $tier } · saldo { $saldo }
role-admin = admin
role-staff = staf
role-reseller = reseller

## Jumlah yang diketik di chat (/deposit, /price)
amount-unclear = Saya tidak yakin berapa jumlah <code>{ $typed }</code>. Tulis seperti <code>50000</code>, <code>50.000</code>, <code>Rp50.000</code>, <code>50rb</code>, <code>50 ribu</code>, <code>1,5jt</code> atau <code>1.5 juta</code>: titik atau koma sebelum tiga angka memisahkan ribuan, dan desimal seperti <code>1,5</code> harus diikuti <code>rb</code> atau <code>jt</code>.

## Reseller: /saldo, /deposit, /tier
saldo-own =
    💰 <b>Saldo Anda</b>: { $saldo }
    Ditahan untuk pesanan yang hasilnya belum diketahui: { $held }
saldo-of =
    💰 <b>Saldo { $name }<code>{ $userId }</code></b>: { $saldo }
    Ditahan untuk pesanan yang hasilnya belum diketahui: { $held }
saldo-movements-title = <b>Mutasi terakhir</b>
saldo-no-movements = Belum ada mutasi.
saldo-movement = { $time } · { $kind } { $amount } · <code>{ $ref }</code> · saldo { $saldo }
statement-deposit = deposit
statement-correction = koreksi
statement-spent = dipakai untuk pesanan
statement-held = ditahan untuk pesanan (hasil belum diketahui)
statement-refund = dikembalikan (pesanan gagal)
saldo-not-reseller = /saldo untuk reseller: mereka membayar dari saldo sendiri. /balance menampilkan saldo toko di provider.
saldo-usage = Gunakan <code>/saldo USER_ID</code> untuk satu reseller, atau <code>/saldo all</code> untuk semua reseller.
saldo-all-title = <b>Saldo reseller</b>
saldo-all-line = { $name }<code>{ $userId }</code> ({ $tier }): saldo { $saldo } · ditahan { $held }
saldo-all-no-longer = tidak diizinkan lagi
saldo-all-none = Belum ada reseller yang punya saldo.
saldo-all-total = Utang toko ke reseller seluruhnya <b>{ $total }</b> (saldo { $saldo } + ditahan { $held }).
deposit-usage = Gunakan <code>/deposit USER_ID JUMLAH [CATATAN]</code>, contoh <code>/deposit 123456789 50rb transfer BCA</code> (atau <code>50000</code>, <code>Rp50.000</code>, <code>1,5jt</code>). Jumlah negatif mengoreksi kesalahan: <code>/deposit 123456789 -5rb salah ketik</code>.
deposit-bad-amount = Jumlah harus rupiah bulat, bukan 0, paling banyak { $max } (contoh <code>50000</code>, <code>50.000</code>, <code>50rb</code> atau <code>-5rb</code>).
deposit-bad-note = Catatan paling banyak 200 karakter.
not-reseller-admin = { $name }<code>{ $userId }</code> adalah admin: admin memesan dengan akun toko dan tidak punya saldo.
not-reseller-staff-env = { $name }<code>{ $userId }</code> adalah staf (ALLOWED_USER_IDS): staf memesan dengan akun toko dan tidak punya saldo. Untuk menjadikannya reseller, pindahkan ID-nya dari ALLOWED_USER_IDS ke RESELLER_IDS lalu mulai ulang bot.
not-reseller-staff = { $name }<code>{ $userId }</code> adalah staf: staf memesan dengan akun toko dan tidak punya saldo. Jadikan reseller dengan <code>/allow { $userId } reseller</code>.
not-reseller-stranger = { $name }<code>{ $userId }</code> bukan reseller dan tidak punya saldo. Jadikan reseller dengan <code>/allow { $userId } reseller</code>.
deposit-below-zero = Saldo tidak pernah di bawah Rp 0: koreksi ini lebih besar dari saldonya ({ $saldo }). Tidak ada yang berubah.
deposit-summary =
    <b>Deposit</b> untuk reseller { $name }<code>{ $userId }</code>: <b>{ $amount }</b>
    Saldo sekarang: { $before } → sesudahnya: <b>{ $after }</b>
    Ref: <code>{ $id }</code>

    Ketuk <b>Konfirmasi</b> setelah uangnya Anda terima.
correction-summary =
    <b>Koreksi</b> saldo reseller { $name }<code>{ $userId }</code>: <b>{ $amount }</b>
    Saldo sekarang: { $before } → sesudahnya: <b>{ $after }</b>
    Ref: <code>{ $id }</code>

    Ketuk <b>Konfirmasi</b> untuk menerapkannya.
deposit-done = ✅ Masuk ke { $name }<code>{ $userId }</code>: { $amount }. Saldo sekarang <b>{ $saldo }</b> (ref <code>{ $id }</code>). Pesan untuk reseller sedang dikirim.
deposit-undelivered-not-started = ⚠️ { $name }<code>{ $userId }</code> tidak bisa diberi tahu tentang deposit <code>{ $id }</code>: ia belum pernah membuka chat dengan bot ini, dan Telegram hanya mengizinkan bot menulis kepada orang yang sudah melakukannya. Minta ia membuka bot dan mengirim /start: pesan dan saldonya sampai saat itu. Depositnya tetap masuk.
deposit-undelivered-blocked = ⚠️ { $name }<code>{ $userId }</code> tidak bisa diberi tahu tentang deposit <code>{ $id }</code>: ia memblokir bot ini. Depositnya sudah masuk; ia bisa melihatnya di /saldo setelah membuka blokir.
deposit-done-toast = Masuk.
deposit-already = Deposit ini sudah masuk.
deposit-cancelled = ✖ Dibatalkan: tidak ada yang masuk.
deposit-expired = Deposit ini sudah kedaluwarsa. Kirim /deposit lagi.
deposit-hand-summary = Ini mengkredit permintaan deposit <code>{ $id }</code> secara manual: Konfirmasi memutusnya sebagai <b>dikredit manual</b>, dan tombol Setujui-nya tidak berlaku lagi.
deposit-hand-unknown = Tidak ada permintaan deposit <code>{ $id }</code>: periksa id-nya. Tidak ada yang dikredit.
deposit-hand-not-theirs = Permintaan deposit <code>{ $id }</code> bukan milik reseller ini: milik { $name }<code>{ $owner }</code>. Tidak ada yang dikredit.
deposit-hand-already-approved = Permintaan deposit <code>{ $id }</code> sudah dikredit ({ $amount }) pada { $when } oleh { $name }<code>{ $by }</code> (Setujui). Tidak dikredit lagi.
deposit-hand-already-by-hand = Permintaan deposit <code>{ $id }</code> sudah dikredit manual ({ $amount }, deposit <code>{ $deposit }</code>) pada { $when } oleh { $name }<code>{ $by }</code>. Tidak dikredit lagi.
tier-usage = Gunakan <code>/tier USER_ID NAMA</code>. Tier di katalog: { $tiers }.
tier-unknown = Tidak ada tier <b>{ $tier }</b> di harga katalog. Tier: { $tiers }.
tier-set = Reseller { $name }<code>{ $userId }</code>: tier { $old } → <b>{ $tier }</b>. Ringkasan baru memakai harganya.
tier-traps-title = ⚠️ Tier <b>{ $tier }</b> tidak punya harga sendiri untuk { $count } produk, jadi membayar harga jual di sana: lebih mahal dari tier { $base }.
tier-trap-line = <code>{ $code }</code> { $product }: membayar { $pays } (tier reseller: { $base })
tier-traps-more = … dan { $count } lagi.
tier-traps-hint = Beri tier ini harga sendiri dengan <code>/price CODE AMOUNT { $tier }</code>.

## /language
language-choose = Pilih bahasa Anda:
language-set = Bahasa: Bahasa Indonesia.

## Banjir pesan
rate-limited = Terlalu banyak pesan sekaligus. Mohon tunggu beberapa detik; saya akan menjawab lagi.

## The shop from a phone (catalogue, prices, pause)
command-pricelist = Produk dan harga Anda
command-price = Ubah harga produk
command-disable = Sembunyikan produk
command-enable = Tawarkan lagi produk yang disembunyikan
command-catalog = Katalog sebagai file, untuk diedit
command-pause = Hentikan sementara semua pesanan
command-resume = Buka lagi pesanan
price-not-set = belum diatur
pricelist-title = <b>Daftar harga</b>
pricelist-title-tier = <b>Daftar harga</b> (harga Anda, tier <b>{ $tier }</b>)
pricelist-empty = Saat ini tidak ada produk yang dijual untuk Anda.
pricelist-disabled = <i>Disembunyikan (/enable KODE menawarkannya lagi): { $codes }</i>
pricelist-resting = <i>(sementara tidak tersedia)</i>
order-button-resting = ⏸ sementara tidak tersedia
price-usage =
    Cara pakai: <code>/price KODE JUMLAH</code> untuk harga jual, atau <code>/price KODE JUMLAH TIER</code> untuk harga satu tier reseller.
    Contoh: <code>/price ML86 21000</code> atau <code>/price ML86 19500 gold</code>. Tier baru hanya dibuat bila diminta: <code>/price ML86 19000 platinum baru</code>.
price-bad-amount = Jumlah harus rupiah bulat, lebih dari 0 dan paling banyak { $max }, mis. <code>21000</code>, <code>21.000</code>, <code>Rp21.000</code> atau <code>21rb</code>.
price-bad-tier = Nama tier 1 sampai 32 huruf kecil, angka, _ atau -, diawali huruf (mis. <code>gold</code>).
shop-unknown-code = Tidak ada produk dengan kode <b>{ $code }</b>. /pricelist menampilkan kodenya.
price-changed = ✏️ <b>{ $code }</b> · { $product }: harga { $from } → <b>{ $to }</b>. Ringkasan baru langsung memakainya; ringkasan yang sudah tampil tetap dengan harganya.
price-same = <b>{ $code }</b> · { $product }: harganya sudah { $to }. Tidak ada yang berubah.
price-tier-changed = ✏️ <b>{ $code }</b> · { $product }: harga tier <b>{ $tier }</b> { $from } → <b>{ $to }</b>. Ringkasan baru langsung memakainya; ringkasan yang sudah tampil tetap dengan harganya.
price-tier-same = <b>{ $code }</b> · { $product }: harga tier <b>{ $tier }</b> sudah { $to }. Tidak ada yang berubah.
price-unknown-tier = Tidak ada tier <b>{ $tier }</b>. Tier yang ada: { $tiers }. Tidak ada yang berubah. Untuk membuat tier baru, katakan begitu: <code>/price { $code } JUMLAH { $tier } baru</code>.
price-confirm-title = ⚠️ <b>Periksa harga ini</b>: <b>{ $code }</b> · { $product }: { $from } → <b>{ $to }</b>
price-confirm-title-tier = ⚠️ <b>Periksa harga ini</b>: <b>{ $code }</b> · { $product }, tier <b>{ $tier }</b>: { $from } → <b>{ $to }</b>
price-warning-below-cost = Provider terakhir kali menagih { $provider } untuk produk ini: setiap penjualan dengan harga ini rugi <b>{ $loss }</b>.
price-warning-far = Itu { $percent }% jauhnya dari harga yang diganti ({ $from }): salah ketik?
price-warning-tier-above-retail = Tier <b>{ $tier }</b> akan membayar { $tierPrice }, lebih mahal dari harga jual { $retail }: resellernya membayar lebih mahal dari pembeli biasa.
price-confirm-new-tier = Tier <b>{ $tier }</b> belum ada: Konfirmasi akan membuatnya.
price-confirm-hint = Ketuk <b>Konfirmasi</b> untuk tetap memakainya, atau <b>Batal</b>. Belum ada yang berubah.
price-change-applied = Harga dipasang.
price-applied = ✏️ <b>{ $code }</b>: harga { $from } → <b>{ $to }</b>, dikonfirmasi. Ringkasan baru langsung memakainya.
price-tier-applied = ✏️ <b>{ $code }</b>: harga tier <b>{ $tier }</b> { $from } → <b>{ $to }</b>, dikonfirmasi. Ringkasan baru langsung memakainya.
price-change-was-applied = Harga ini sudah dipasang.
price-change-was-cancelled = Dibatalkan: harganya tidak berubah.
price-change-was-stale = Produk ini sudah tidak ada di katalog: tidak ada yang berubah.
price-change-moved = <b>{ $code }</b>: harganya sudah berubah sejak peringatan ini: sekarang <b>{ $now }</b> (peringatan menunjukkan { $from } → { $to }). Tidak ada yang berubah; kirim /price lagi untuk memasang harga lain.
price-change-moved-tier = <b>{ $code }</b>: harga untuk tier <b>{ $tier }</b> sudah berubah sejak peringatan ini: sekarang <b>{ $now }</b> (peringatan menunjukkan { $from } → { $to }). Tidak ada yang berubah; kirim /price lagi untuk memasang harga lain.
disable-usage = Cara pakai: <code>/disable KODE</code>, mis. <code>/disable ML86</code>
enable-usage = Cara pakai: <code>/enable KODE</code>, mis. <code>/enable ML86</code>
disable-done = ⛔ <b>{ $code }</b> · { $product }: ditawarkan → <b>disembunyikan</b>. Tidak ada yang bisa memesannya sekarang; ringkasan yang sudah tampil tidak memesan apa pun saat Konfirmasi. /enable { $code } menawarkannya lagi.
disable-already = <b>{ $code }</b> · { $product } sudah disembunyikan. Tidak ada yang berubah.
enable-done = ✅ <b>{ $code }</b> · { $product }: disembunyikan → <b>ditawarkan</b>.
enable-already = <b>{ $code }</b> · { $product } sudah ditawarkan. Tidak ada yang berubah.
catalog-source-file = Katalog yang dipakai: dari file (belum diedit lewat chat).
catalog-source-chat = Katalog yang dipakai: diedit lewat chat (versi { $version }, { $time } oleh { $byName }<code>{ $by }</code>).
catalog-how = Untuk mengubahnya: edit file ini lalu kirim kembali ke saya sebagai dokumen. Saya memeriksanya dan menunjukkan perubahannya sebelum diterapkan.
catalog-upload-admin-only = Hanya admin yang bisa mengubah katalog dengan file. Tidak ada yang diubah.
catalog-upload-not-json = <b>{ $name }</b> bukan file JSON. Kirim katalog sebagai dokumen <code>.json</code> (/catalog memberi Anda yang sekarang).
catalog-upload-too-large = <b>{ $name }</b> terlalu besar ({ $size } KB; paling besar { $max } KB). Tidak ada yang diubah.
catalog-upload-download-failed = Saya tidak bisa mengambil file dari Telegram. Silakan kirim lagi.
catalog-upload-invalid = ❌ <b>{ $name }</b> bukan katalog yang valid ({ $count } masalah). Tidak ada yang diubah. Perbaiki ini lalu kirim lagi:
catalog-upload-more-errors = … dan { $count } lagi.
catalog-upload-no-changes = <b>{ $name }</b> sama dengan katalog yang dipakai. Tidak ada yang diubah.
catalog-diff-title = <b>Periksa katalog baru</b> ({ $name }, { $count } perubahan):
catalog-diff-added = ➕ <b>{ $code }</b> · { $product } ({ $game }), harga { $price }
catalog-diff-removed = ➖ <b>{ $code }</b> · { $product } ({ $game }) dihapus
catalog-diff-price = ✏️ <b>{ $code }</b>: harga { $from } → { $to }
catalog-diff-price-tier = ✏️ <b>{ $code }</b>: harga tier { $tier } { $from } → { $to }
catalog-diff-renamed = 🔤 <b>{ $code }</b>: nama "{ $from }" → "{ $to }"
catalog-diff-moved = 🎮 <b>{ $code }</b>: game { $from } → { $to }
catalog-diff-disabled = ⛔ <b>{ $code }</b>: ditawarkan → disembunyikan
catalog-diff-enabled = ✅ <b>{ $code }</b>: disembunyikan → ditawarkan
catalog-diff-rule = 🆔 { $game }: aturan ID pemain berubah
catalog-diff-routes = 🔀 <b>{ $code }</b>: rute { $from } → { $to }
catalog-routes-all = semua provider, dengan kodenya
catalog-diff-more = … dan { $count } perubahan lagi.
catalog-diff-confirm = Ketuk <b>Konfirmasi</b> untuk menerapkannya sekarang (tanpa restart). Ringkasan yang sudah tampil tetap dengan harganya.
catalog-upload-applied = ✅ Katalog baru sudah dipakai.
catalog-upload-applied-alert = Katalog baru sudah dipakai.
catalog-upload-cancelled = ✖ Dibatalkan. Katalog tidak diubah.
catalog-upload-was-applied = Katalog ini sudah diterapkan.
catalog-upload-was-cancelled = Perubahan ini sudah dibatalkan.
catalog-upload-was-stale = Katalog berubah setelah file ini diperiksa; file ini tidak diterapkan.
catalog-upload-stale-alert = Katalog berubah sementara itu: tidak ada yang diterapkan.
catalog-upload-stale = ⚠️ Katalog diubah orang lain setelah file ini diperiksa, jadi tidak diterapkan (akan membatalkan perubahan mereka). Kirim /catalog untuk yang sekarang, edit, lalu kirim lagi.
pause-done = ⏸ <b>Pesanan dihentikan sementara.</b> Tidak ada yang bisa memulai atau mengonfirmasi pesanan; pesanan yang sudah terkirim selesai seperti biasa. Pengguna diberi tahu: { $reason }. /resume membuka pesanan lagi.
pause-changed = ⏸ Pesanan masih dihentikan; pengguna sekarang diberi tahu: { $reason }. /resume membuka pesanan lagi.
pause-no-reason = (tanpa alasan)
pause-still = ⏸ Pesanan sedang dijeda (sejak { $time }, oleh { $byName }<code>{ $by }</code>). Pengguna diberi tahu: { $reason }. Tidak ada yang diubah: <code>/pause ALASAN</code> memberi tahu alasan lain, /resume membuka pesanan lagi.
pause-reason-too-long = Alasannya terlalu panjang: paling banyak 200 karakter.
resume-done = ▶️ <b>Pesanan dibuka lagi</b> (dihentikan sejak { $time } oleh { $byName }<code>{ $by }</code>).
resume-not-paused = Pesanan tidak sedang dihentikan. Tidak ada yang berubah.
orders-paused = ⏸ Pesanan sedang dihentikan sementara. Tidak ada yang dipesan. Silakan coba lagi nanti.
orders-paused-reason = ⏸ Pesanan sedang dihentikan sementara: { $reason }. Tidak ada yang dipesan. Silakan coba lagi nanti.
callback-paused = Pesanan sedang dihentikan sementara. Tidak ada yang dipesan.
callback-paused-reason = Pesanan dihentikan sementara: { $reason }. Tidak ada yang dipesan.
order-product-gone = ⛔ <b>{ $code }</b> · { $product } tidak dijual lagi. Tidak ada yang dipesan. /order menampilkan yang dijual.
callback-product-resting = { $product } sementara tidak tersedia: providernya tidak menjawab. Tidak ada yang ditagih; coba lagi beberapa menit lagi.
order-product-resting = ⏸️ <b>{ $product }</b> (<code>{ $code }</code>) sementara tidak tersedia: providernya sedang tidak menjawab. Tidak ada yang dikirim dan tidak ada yang ditagih. Ketuk <b>Konfirmasi</b> lagi beberapa menit lagi.
callback-product-gone = { $code } tidak dijual lagi. Tidak ada yang dipesan.

## broadcast
command-broadcast = Kirim pesan ke semua pengguna
broadcast-usage =
    Gunakan <code>/broadcast TEKS</code>: teksnya (boleh beberapa baris) dikirim ke semua yang boleh memesan dan sudah memulai bot, setelah pratinjau dengan <b>Konfirmasi</b>.
broadcast-too-long = Pesan ini { $length } karakter; broadcast paling banyak { $max }. Tidak ada yang dikirim.
broadcast-nobody = Tidak ada yang akan menerimanya: belum ada yang boleh memesan yang sudah memulai bot. Tidak ada yang dikirim.
broadcast-message =
    📢 <b>Pengumuman</b>

    { $text }
broadcast-preview-title = <b>Pratinjau broadcast</b>: persis ini dikirim ke <b>{ $count }</b> pengguna, satu pesan masing-masing: semua yang boleh memesan dan sudah memulai bot, termasuk para admin (Anda juga).
broadcast-title = <b>Broadcast</b> ke <b>{ $count }</b> pengguna:
broadcast-title-cancelled = <b>Broadcast</b> (dibatalkan):
broadcast-preview-confirm = Ketuk <b>Konfirmasi</b> untuk mengirimnya.
broadcast-status-sending = ⏳ Mengirim ke { $total } pengguna…
broadcast-status-progress = ⏳ Mengirim: { $processed } dari { $total } (terkirim { $delivered }, diblokir { $blocked }, gagal { $failed })
broadcast-status-done = ✅ Terkirim ke { $total } pengguna: terkirim { $delivered }, diblokir { $blocked }, gagal { $failed }.
broadcast-status-cancelled = ✖ Dibatalkan: tidak ada yang dikirim.
broadcast-report = 📢 Broadcast selesai: <b>{ $delivered }</b> terkirim, { $blocked } memblokir bot, { $failed } gagal (dari { $total }).
broadcast-report-interrupted = { $interrupted } dari yang gagal sedang dikirim saat bot berhenti: tidak dikirim ulang, jadi tidak ada yang menerimanya dua kali.
broadcast-started-toast = Mengirim…
broadcast-cancelled-toast = Dibatalkan.
broadcast-already-sending = Broadcast ini sedang dikirim: { $processed } dari { $total } sejauh ini.
broadcast-already-done = Broadcast ini sudah dikirim: { $delivered } terkirim, { $blocked } diblokir, { $failed } gagal.
broadcast-already-cancelled = Broadcast ini sudah dibatalkan. Kirim /broadcast lagi untuk yang baru.
broadcast-expired = Pratinjau ini sudah kedaluwarsa. Kirim /broadcast lagi.

## receipt and status
command-status = Status dan hasil sebuah pesanan
receipt-button = 🧾 Struk
copy-sn-button = 📋 Salin SN
receipt-sent = Struk dikirim di bawah: teruskan ke pelanggan Anda.
receipt-not-success = Pesanan ini tidak berhasil ({ $state }): tidak ada struk.
receipt-title =
    🧾 <b>{ $shop }</b>
    <b>Bukti top-up</b>
receipt-time = Tanggal: { $time }
receipt-status = Status: ✅ Berhasil
receipt-game = Game: { $game }
receipt-product = Produk: <b>{ $code }</b> · { $product }
receipt-player-id = ID pemain: <code>{ $playerId }</code>
receipt-player-name = Nama pemain: <b>{ $playerName }</b>
receipt-sn = SN: <code>{ $sn }</code>
receipt-ref = Ref ID: <code>{ $refId }</code>
receipt-thanks = Terima kasih atas pembelian Anda!
status-usage = Kirim <code>/status REF_ID</code> dengan ref id salah satu pesanan Anda (ada di ringkasan dan hasil pesanan).
status-not-found = Tidak ada pesanan Anda dengan ref id itu: <code>{ $refId }</code>
status-several = <code>{ $id }</code> menunjuk beberapa pesanan (ref_id beberapa mitra, atau ref_id mitra yang sama dengan ref id toko). Tanyakan masing-masing dengan ref id toko:
    { $refIds }
status-title = 📄 <b>Status pesanan</b>
status-state = Status: { $state }
status-state-draft = 📝 belum dikonfirmasi
status-nothing-ordered = Tidak ada yang dipesan.
status-not-sent = Pesanan tidak dikirim ke provider: tidak ada yang dipesan.
status-game = Game: { $game }
status-created = Dibuat: { $time }
status-submitted = Dikirim ke provider: { $time }
status-finished = Selesai: { $time }
status-settled = Diselesaikan oleh admin: { $time }
status-settled-by = Diselesaikan oleh admin { $adminName }<code>{ $adminId }</code>: { $time }
status-ordered-by = Dipesan oleh: { $user } (<code>{ $userId }</code>)

## Groups
callback-not-your-menu = Menu ini milik orang lain. Kirim /order untuk mendapatkan menu Anda sendiri.
private-only = 🔒 /{ $command } hanya ditampilkan di chat pribadi dengan saya (di sini seluruh grup bisa membacanya). Buka @{ $bot } lalu kirim /{ $command } di sana.
edit-not-read = Saya memproses pesan sekali saja: mengedit pesan tidak mengubah apa pun. Silakan kirim lagi sebagai pesan baru.
edit-not-read-draft = Saya memproses pesan sekali saja: mengedit pesan tidak mengubah apa pun. Ringkasan di atas masih memakai yang pertama Anda kirim; jika salah, ketuk <b>Batal</b> lalu kirim lagi.

## Mini App (/app, dan halamannya: kunci yang diawali page-)
command-app = Buka aplikasi toko
help-app = /app: aplikasi toko (penjualan, katalog, reseller dalam satu layar)
help-app-reseller = /app: halaman Anda sendiri: saldo, mutasi, pesanan, dan harga
app-button = 🛍 Buka aplikasi toko
app-menu-button = Toko
app-open-admin = Aplikasi toko: penjualan hari ini, katalog, pesanan tertunda, reseller dan pesanan, dalam satu layar.
app-open-reseller = Saldo, mutasi, pesanan dan harga Anda, dalam satu layar.
app-private-only = Aplikasi toko dibuka di chat pribadi: kirim pesan ke @{ $bot } dan kirim /app di sana.
app-not-for-you = Aplikasi toko untuk admin dan reseller toko.

## Halaman Mini App (dibaca oleh halaman itu sendiri, teks biasa: tanpa markup)
page-loading = Memuat…
page-working = Memproses…
page-retry = Coba lagi
page-back = Kembali
page-cancel = Batal
page-kept = Yang Anda ketik tetap tersimpan.
page-tabs = Bagian
page-newer = Lebih baru
page-older = Lebih lama
page-error-network = Bot tidak dapat dihubungi. Periksa koneksi lalu coba lagi.
page-error-unauthorized = Halaman ini dibuka tanpa masuk lewat Telegram, atau sudah terlalu lama. Tutup lalu buka lagi dari chat.
page-error-forbidden = Halaman ini untuk admin dan reseller toko.
page-error-not-found = Data itu tidak ada (lagi).
page-error-server = Terjadi kesalahan di sisi bot. Coba lagi sebentar lagi.
page-denied-title = Bukan untuk akun ini
page-failed-title = Aplikasi toko tidak dapat dibuka
page-tab-today = Hari ini
page-tab-catalogue = Katalog
page-tab-pending = Tertunda
page-tab-resellers = Reseller
page-tab-orders = Pesanan
page-tab-wallet = Saldo
page-tab-my-orders = Pesanan
page-tab-prices = Harga
page-state-success = Berhasil
page-state-failed = Gagal
page-state-unknown = Belum diketahui
page-state-submitting = Diproses
page-state-draft = Belum dikonfirmasi
page-state-cancelled = Dibatalkan
page-reason-provider-error = Ditolak provider
page-reason-not-sent = Tidak dikirim ke provider
page-reason-settled = Diselesaikan sebagai gagal
page-reason-timeout = Provider tidak menjawab tepat waktu
page-reason-connection-lost = Koneksi terputus setelah pesanan dikirim
page-reason-not-json = Jawaban provider tidak terbaca
page-reason-malformed = Jawaban provider tidak lengkap
page-reason-status-not-sukses = Provider tidak melaporkan sukses
page-reason-ref-id-already-exists = Provider sudah punya ref id ini
page-reason-interrupted = Bot dimulai ulang saat pesanan dikirim
page-reason-server-error = Server provider melaporkan kesalahan
page-reason-upstream-unknown = Provider belum mengetahui hasilnya
page-order-player = Pemain { $player }
page-order-sn = SN
page-order-api = API
page-order-returned = Gagal: tidak ada yang terisi, dan harganya ({ $price }) sudah kembali ke saldo Anda.
page-order-by = Oleh { $user } ({ $id })
page-order-cost = provider { $cost }
page-order-provider = lewat { $provider }
page-order-refused = ditolak { $provider } ({ $code })
page-order-partner-ref = ref_id mitra
page-today-title = Hari ini, { $day }
page-today-sales = Penjualan
page-today-orders = { $count } pesanan seluruhnya
page-today-revenue = Pendapatan
page-today-cost = provider { $cost }
page-today-margin = Margin
page-today-balance = Saldo provider
page-today-balance-none = belum ada penjualan
page-today-providers = Provider: saldo dan hari ini
page-today-provider-hint = { $count } pesanan hari ini · biaya { $cost } · margin { $margin } · saldo terlihat { $seen }
page-today-provider-hint-none = { $count } pesanan hari ini · biaya { $cost } · margin { $margin } · saldo belum terlihat
page-today-money = Uang
page-today-owed = Utang ke reseller
page-today-owed-hint = saldo { $saldo } · ditahan { $held }
page-today-deposits = Deposit hari ini
page-today-outcomes = Gagal / belum diketahui hari ini
page-today-outcomes-hint = yang belum diketahui menunggu di Tertunda
page-today-pending = Menunggu diselesaikan
page-today-days = 30 hari terakhir
page-today-by-product = Hari ini per produk
page-today-no-sales = Belum ada penjualan hari ini.
page-today-product-hint = { $count } terjual · margin { $margin }
page-today-product-hint-unpriced = { $count } terjual · margin { $margin } (sebagian dengan harga provider tidak diketahui, tidak dihitung)
page-today-unpriced = { $count } penjualan dengan harga provider tidak diketahui tidak dihitung
page-top-title = Terlaris
page-period-day = Hari
page-period-week = Minggu
page-period-month = Bulan
page-period-before = Sebelumnya
page-period-after = Berikutnya
page-period-week-span = { $from } – { $to }
page-top-totals = { $count } penjualan · { $selling } · margin { $margin }
page-top-products = Produk, menurut omzet
page-top-resellers = Reseller, menurut penjualan dengan harga mereka
page-top-product-hint = { $count } terjual · margin { $margin }
page-top-reseller-hint = { $count } pesanan · laba { $profit }
page-top-none = Tidak ada penjualan pada periode ini.
page-top-no-resellers = Tidak ada penjualan reseller pada periode ini.
page-top-providers = Provider, menurut pendapatan
page-top-provider-hint = { $count } pesanan · biaya { $cost } · margin { $margin }
page-compare-title = Bulan ini vs bulan lalu
page-compare-days = { $month } dibanding { $before }, { $days ->
        [one] tanggal 1 masing-masing
       *[other] tanggal 1 sampai { $days } masing-masing
    }
page-compare-sales = Penjualan
page-compare-revenue = Omzet
page-compare-margin = Margin
page-compare-last = bulan lalu { $value }
page-compare-up = ▲ { $percent } %
page-compare-down = ▼ { $percent } %
page-compare-same = = 0 %
page-compare-none = tidak ada pembanding
page-hours-title = Jam pesanan
page-hours-busiest = Paling ramai: { $hours }
page-hours-busy-hour = { $hour }.00 ({ $count } pesanan)
page-hours-bar = { $hour }.00: { $count } pesanan, { $selling }
page-hours-none = Tidak ada pesanan pada periode ini.
page-chart-margin = Margin
page-chart-sales = Penjualan
page-chart-balance = Saldo provider
page-catalogue-title = Katalog
page-catalogue-from-file = Dipakai: file katalog (belum pernah diubah).
page-catalogue-version = Dipakai: perubahan ke-{ $version }.
page-catalogue-how = Ubah nama, harga atau harga tier, atau sembunyikan produk; lalu tinjau dan konfirmasi.
page-catalogue-name = Nama
page-catalogue-price = Harga
page-catalogue-tier-price = { $tier }
page-catalogue-offered = dijual
page-catalogue-hidden = disembunyikan
page-catalogue-review = Tinjau perubahan
page-catalogue-review-title = Perubahan Anda
page-catalogue-confirm = Konfirmasi perubahan
page-catalogue-confirm-hint = Konfirmasi langsung menerapkannya, juga di chat: ringkasan baru memakai harga baru.
page-catalogue-no-changes = Tidak ada yang berubah.
page-catalogue-applied = Diterapkan: katalog yang dipakai sekarang perubahan ke-{ $version }.
page-catalogue-already = Sudah diterapkan (perubahan ke-{ $version }).
page-catalogue-invalid = { $count ->
    [one] Satu hal perlu diperbaiki (tidak ada yang diubah):
   *[other] { $count } hal perlu diperbaiki (tidak ada yang diubah):
}
page-catalogue-problem = { $where }: { $problem }
page-catalogue-stale = Seseorang mengubah katalog sementara itu (sekarang perubahan ke-{ $version }). Perubahan Anda tetap ada, di atas perubahan mereka: tinjau lagi.
page-catalogue-conflict-price = Harga { $code }: Anda mengisi { $mine }, orang lain mengisi { $theirs } sementara itu; punya Anda yang dipakai — periksa lagi.
page-catalogue-conflict-tier = Harga { $code } untuk tier { $tier }: Anda mengisi { $mine }, orang lain mengisi { $theirs } sementara itu; punya Anda yang dipakai — periksa lagi.
page-catalogue-conflict-name = Nama { $code }: Anda menulis “{ $mine }”, orang lain “{ $theirs }” sementara itu; punya Anda yang dipakai — periksa lagi.
page-catalogue-conflict-gone = { $code } dihapus sementara itu: perubahan Anda untuknya tidak bisa dipakai.
page-catalogue-routes = Rute, berurutan (provider, kodenya)
page-catalogue-routes-all = Dijual lewat semua provider ({ $providers }), dengan kodenya.
page-catalogue-routes-choose = Pilih rute
page-catalogue-routes-every = Pakai semua provider
page-catalogue-route-add = Tambah rute
page-catalogue-route-up = Naikkan
page-catalogue-route-remove = Hapus
page-catalogue-route-provider = Provider rute { $n }
page-catalogue-route-code = Kode di { $provider }
page-catalogue-conflict-routes = Rute { $code }: orang lain mengubahnya juga; punya Anda dipertahankan — periksa.
page-catalogue-warnings = { $count ->
    [one] Satu harga perlu dilihat sekali lagi (bertanda ⚠ di bawah). Konfirmasi hanya bila memang itu yang Anda mau.
   *[other] { $count } harga perlu dilihat sekali lagi (bertanda ⚠ di bawah). Konfirmasi hanya bila memang itu yang Anda mau.
}
page-price-none = tanpa harga
page-price-format = Jumlahnya tidak jelas: tulis mis. 21000, 21.000, Rp21.000, 21rb atau 1,5jt.
page-amount-format = Ini tidak terbaca sebagai jumlah: tulis mis. 50000, Rp 50.000, Rp 50.000,00, 50rb atau 1,5jt. Titik atau koma sebelum tiga angka memisahkan ribuan; desimal seperti 1,5 harus diikuti rb atau jt.
page-amount-above-zero = Tulis jumlah di atas nol, mis. 50rb.
page-amount-too-large = Itu lebih dari { $max }: tulis mis. 1,5jt.
page-diff-added = { $code } { $name } ditambahkan ke { $game } seharga { $price }
page-diff-removed = { $code } { $name } dihapus
page-diff-price = { $code }: { $from } → { $to }
page-diff-price-tier = { $code }, tier { $tier }: { $from } → { $to }
page-diff-renamed = { $code }: “{ $from }” → “{ $to }”
page-diff-moved = { $code }: { $from } → { $to }
page-diff-disabled = { $code } disembunyikan
page-diff-enabled = { $code } dijual lagi
page-diff-rule = { $game }: aturan ID pemain berubah
page-diff-routes = { $code }, rute: { $from } → { $to }
page-routes-all = semua provider, dengan kodenya
page-diff-warning-below-cost = ⚠ Di bawah harga provider terakhir ({ $provider }): setiap penjualan rugi { $loss }.
page-diff-warning-far = ⚠ { $percent }% jauhnya dari harga yang diganti ({ $from }): salah ketik?
page-pending-title = Tertunda
page-pending-none = Tidak ada pesanan yang menunggu diselesaikan.
page-pending-help = Periksa setiap pesanan di dasbor provider, lalu selesaikan di sini: pengguna diberi tahu di chat.
page-pending-success = Berhasil
page-pending-failed = Gagal
page-pending-sn = SN dari dasbor provider
page-pending-reason = Alasan gagal
page-pending-settle-success = Selesaikan sebagai berhasil
page-pending-settle-failed = Selesaikan sebagai gagal
page-pending-settled = { $ref } diselesaikan: { $state }.
page-pending-told-user = Pengguna sudah diberi tahu.
page-pending-told-callback = Sistem mitra menerima callback (H2H).
page-pending-told-nothing = Mitra tidak dikirimi apa pun (H2H, tanpa URL callback): mitra melihatnya saat menanyakan status.
page-pending-already = { $ref } sudah diselesaikan (di sini atau di chat).
page-resellers-title = Reseller
page-resellers-owed = Utang ke reseller
page-resellers-none = Belum ada reseller. Tambahkan di chat: /allow USER_ID reseller
page-resellers-tier = tier { $tier }
page-resellers-no-longer = bukan reseller lagi
page-reseller-title = Reseller { $id }
page-saldo = Saldo
page-held-label = Ditahan
page-held = ditahan { $held }
page-held-hint = untuk pesanan yang hasilnya belum diketahui
page-tier = Tier harga
page-deposit-open = Deposit atau koreksi
page-deposit-title = Deposit atau koreksi
page-deposit-amount = Jumlah (rupiah; negatif untuk koreksi)
page-deposit-amount-format = Tulis rupiah bulat, mis. 50000, 50.000, Rp50.000, 50rb, 1,5jt atau -5rb. Titik atau koma sebelum tiga angka memisahkan ribuan; desimal seperti 1,5 harus diikuti rb atau jt.
page-deposit-note = Catatan (opsional)
page-deposit-amount-short = Jumlah
page-deposit-note-short = Catatan
page-deposit-hint = Anda mengonfirmasi di langkah berikutnya; saldo baru berubah saat itu.
page-deposit-review = Tinjau
page-deposit-review-title = Deposit untuk dikonfirmasi
page-correction-review-title = Koreksi untuk dikonfirmasi
page-deposit-before = Saldo sekarang
page-deposit-after = Saldo setelahnya
page-deposit-change = Ubah
page-deposit-confirm = Konfirmasi deposit
page-deposit-done = Masuk { $amount }: saldo sekarang { $saldo }. Reseller sudah diberi tahu di chat.
page-deposit-already = Deposit ini sudah masuk ({ $amount }, saldo setelahnya { $saldo }): deposit hanya dihitung sekali.
page-deposit-was-cancelled = Deposit ini dibatalkan.
page-deposit-below-zero = Itu membuat saldo di bawah 0 (sekarang { $saldo }).
page-statement-title = Mutasi
page-statement-empty = Belum ada mutasi.
page-statement-deposit = Deposit
page-statement-correction = Koreksi
page-statement-spent = Dipakai untuk pesanan
page-statement-held = Ditahan untuk pesanan (hasil belum diketahui)
page-statement-refund = Dikembalikan (pesanan gagal)
page-movement-after = saldo { $saldo }
page-orders-title = Pesanan
page-orders-search = Ref id atau ID pemain
page-orders-search-hint = TG… atau 12345678(1234)
page-orders-day = Tanggal
page-orders-outcome = Hasil
page-orders-any = Semua
page-orders-user = ID pengguna
page-orders-user-hint = semua pengguna
page-orders-find = Cari
page-orders-none = Tidak ada pesanan yang cocok.
page-orders-csv = CSV { $day }
page-wallet-title = Saldo Anda
page-my-orders-title = Pesanan Anda
page-my-orders-none = Belum ada pesanan.
page-prices-title = Harga Anda
page-prices-none = Saat ini tidak ada yang dijual untuk Anda.
page-product-resting = sementara tidak tersedia

## Deposit requests: /payinfo, a reseller's /deposit AMOUNT, the proof, Approve / Other amount / Reject
help-payinfo = /payinfo [TEKS|off]: cara reseller membayar deposit (kirim foto dengan caption /payinfo untuk QRIS)
help-deposit-request = /deposit JUMLAH: minta isi saldo lewat transfer
command-payinfo = Cara bayar deposit reseller
deposit-not-for-you = /deposit untuk admin dan reseller.
payinfo-none = Belum ada cara bayar: reseller belum bisa minta deposit. Atur dengan <code>/payinfo Bank BCA 1234567890 a.n. Toko</code>, atau kirim foto QRIS dengan caption <code>/payinfo</code>.
payinfo-removed = Cara bayar dihapus: reseller tidak bisa minta deposit sampai diatur lagi.
payinfo-title = <b>Cara bayar</b> (ditampilkan di setiap permintaan deposit):
payinfo-too-long = Cara bayar paling banyak { $max } karakter.
payinfo-default-qris = Scan QRIS di atas.
payinfo-set = ✅ Cara bayar disimpan. Reseller melihatnya di setiap permintaan deposit:
payinfo-with-image = (dengan gambar)
request-usage = Ketik <code>/deposit JUMLAH</code>, mis. <code>/deposit 100rb</code>: dari { $min } sampai { $max }. Anda mendapat nominal transfer yang pasti.
request-bad-amount = <code>{ $typed }</code> bukan jumlah yang bisa diminta: tulis seperti <code>100000</code>, <code>100rb</code> atau <code>Rp100.000</code>, dari { $min } sampai { $max }.
request-no-pay-info = Toko belum mengatur deposit. Tanyakan ke admin.
request-private-only = 🔒 Permintaan deposit hanya dibuat dan ditampilkan di chat pribadi Anda dengan saya, tidak di sini karena seluruh grup bisa membacanya: tidak ada yang dibuat atau ditampilkan di sini. Buka @{ $bot } lalu kirim /{ $command } di sana.
request-private-only-short = Permintaan deposit hanya dibuat di chat pribadi Anda dengan bot: tidak ada yang dibuat di sini.
request-open-private = Buka chat pribadi
request-too-many = Anda sudah punya { $open } permintaan deposit terbuka: kirim buktinya atau batalkan satu dulu.
request-too-soon = Anda sudah membuat { $max } permintaan deposit dalam satu jam terakhir, batas maksimalnya: Anda bisa meminta lagi pukul { $at }.
request-no-code = Semua kode unik untuk jumlah ini sedang dipakai permintaan lain: coba jumlah yang sedikit berbeda.
request-made =
    💳 <b>Permintaan deposit</b> <code>{ $id }</code>
    Transfer tepat <b>{ $exact }</b> ({ $amount } + kode { $code }): nominal ini yang akan masuk ke saldo.
request-proof-hint = Lalu kirim foto bukti transfer sebagai balasan pesan ini (sebelum { $until }).
request-cancel = Batalkan permintaan
request-top-up = 💳 Isi saldo
request-amount-ask = 💳 Mau isi saldo berapa ({ $min } sampai { $max })? Balas pesan ini dengan jumlahnya, mis. 100rb.
request-status =
    💳 Permintaan deposit <code>{ $id }</code>: <b>{ $state }</b>
    Jumlah: { $exact } · diminta { $age }
request-status-credited = Masuk: { $amount }
request-status-reason = Alasan: { $reason }
request-state-proof = menunggu bukti transfer
request-state-review = menunggu persetujuan
request-state-approved = disetujui
request-state-rejected = ditolak
request-state-expired = kedaluwarsa
request-state-cancelled = dibatalkan
request-state-hand = dikredit manual
request-proof-received = 📨 Bukti untuk <code>{ $id }</code> diterima. Admin memeriksa transfer; Anda akan diberi tahu saat saldo masuk.
request-proof-none = Tidak ada permintaan deposit Anda yang menunggu bukti. Minta dulu dengan <code>/deposit JUMLAH</code>.
request-proof-which = Beberapa permintaan Anda menunggu bukti: transfer ini untuk yang mana?
request-proof-gone = Bukti itu sudah tidak disimpan: kirim fotonya lagi, sebagai balasan permintaannya.
request-not-found = Permintaan deposit itu tidak ada.
request-proof-closed = Permintaan <code>{ $id }</code> tidak menerima bukti lagi: { $state }.
request-proof-too-large = File itu lebih dari 20 MB: kirim screenshot transfer saja.
request-proof-type = Kirim bukti sebagai foto, gambar (JPEG, PNG, WebP) atau PDF transfer.
request-proof-unreadable = File itu belum bisa dibaca dari Telegram: kirim lagi sebentar lagi.
request-cancel-too-late = Permintaan ini tidak bisa dibatalkan: { $state }.
request-cancelled = Permintaan <code>{ $id }</code> dibatalkan.
request-decided = Sudah diputuskan: { $state }.
request-approved-toast = Disetujui dan masuk saldo
request-approved = ✅ <code>{ $id }</code> disetujui: { $amount } masuk. Saldo reseller: <b>{ $saldo }</b>.
request-rejected-toast = Ditolak
request-reason-ask = ✍️ <code>{ $id }</code> ditolak. Balas pesan ini dengan alasan singkat untuk reseller (tanpa alasan dalam 10 menit, reseller diberi tahu tanpa alasan).
request-reason-placeholder = Alasannya, mis. transfer tidak ditemukan
request-other-ask = 💵 Berapa jumlah di mutasi bank untuk <code>{ $id }</code> (diminta: { $exact })? Balas pesan ini dengan jumlahnya.
request-other-summary = Masukkan <b>{ $amount }</b> untuk <code>{ $id }</code>, bukan { $exact }?
request-other-confirm = ✅ Konfirmasi
request-other-cancelled = Tidak ada yang dimasukkan untuk <code>{ $id }</code>: permintaan ini masih menunggu Setujui, Jumlah lain atau Tolak.
request-reason-sent = Reseller sudah diberi tahu alasan penolakan <code>{ $id }</code>.
request-reason-late = Reseller sudah diberi tahu tentang <code>{ $id }</code>.
request-age-now = baru saja
request-age-minutes = { $n } menit lalu
request-age-hours = { $n } jam lalu
request-admin-title = 💳 <b>Permintaan deposit</b> <code>{ $id }</code>
request-admin-who = Dari { $name }<code>{ $userId }</code>, tier { $tier }
request-admin-amount = Transfer: <b>{ $exact }</b> ({ $amount } + kode { $code })
request-admin-saldo = Saldo sekarang: { $saldo }
request-admin-age = Diminta { $age }
request-proof-sent-before = ⚠️ Gambar ini sudah pernah dikirim untuk <code>{ $id }</code>.
request-admin-saldo-after = Saldo setelah dikreditkan: <b>{ $saldo }</b>
request-decided-approved = ✅ Disetujui oleh { $name }<code>{ $adminId }</code>: { $amount } dikreditkan.
request-decided-hand = ✍️ Dikreditkan manual oleh { $name }<code>{ $adminId }</code>: { $amount }.
request-decided-rejected = ❌ Ditolak oleh { $name }<code>{ $adminId }</code>.
request-decided-other = ☑️ { $state }: { $name }<code>{ $adminId }</code>.
request-decided-expired = ⌛ Kedaluwarsa tanpa keputusan.
request-decided-cancelled = 🚫 Dibatalkan oleh reseller.
report-requests = Permintaan deposit: { $asked } diminta ({ $askedAmount }) · { $approved } disetujui ({ $approvedAmount }) · { $rejected } ditolak · { $expired } kedaluwarsa
export-deposits-caption = Deposit { $month }: { $count } (waktu { $tz }), dengan permintaan yang dijawab dan siapa yang menyetujui
request-approve = ✅ Setujui
request-other = 💵 Jumlah lain
request-reject = ❌ Tolak
request-expired-told = ⌛ Permintaan deposit <code>{ $id }</code> ({ $amount }) kedaluwarsa tanpa bukti. Jika sudah transfer, hubungi admin dengan id permintaan.
request-rejected-told = ❌ Permintaan deposit <code>{ $id }</code> ({ $amount }) ditolak.
request-rejected-reason-told = ❌ Permintaan deposit <code>{ $id }</code> ({ $amount }) ditolak: { $reason }

## Mini App: deposit requests (the admins' Pending page, the reseller's wallet)
page-requests-title = Permintaan deposit
page-today-requests = Permintaan deposit disetujui / diminta
page-today-requests-hint = { $approved } masuk · { $rejected } ditolak · { $expired } kedaluwarsa
page-requests-none = Tidak ada permintaan deposit yang menunggu.
page-requests-no-pay-info = Belum ada cara bayar: reseller belum bisa minta deposit. Atur di bawah.
page-request-state-proof = menunggu bukti
page-request-state-review = menunggu persetujuan
page-request-state-approved = disetujui
page-request-state-rejected = ditolak
page-request-state-expired = kedaluwarsa
page-request-state-cancelled = dibatalkan
page-request-state-hand = dikredit manual
page-request-who = { $name } ({ $id }) · saldo { $saldo }
page-request-code = { $amount } + kode { $code }
page-request-sent-before = Gambar ini sudah pernah dikirim untuk { $id }.
page-request-proof = Bukti transfer
page-request-proof-pdf = Buka bukti (PDF)
page-request-proof-failed = Bukti tidak bisa diambil dari Telegram.
page-request-approve = Setujui
page-request-other = Jumlah lain
page-request-reject = Tolak
page-request-other-amount = Jumlah di mutasi bank (rupiah)
page-request-reason = Alasan singkat untuk reseller (opsional)
page-request-other-review = Periksa jumlah
page-request-other-summary = Masukkan { $amount } untuk { $id }, bukan { $exact }?
page-request-other-hint = Belum ada yang masuk sampai Anda konfirmasi.
page-request-other-confirm = Konfirmasi: masukkan { $amount }
page-request-other-change = Ubah jumlah
page-request-approved = { $id } disetujui: { $amount } masuk, saldo sekarang { $saldo }. Reseller sudah diberi tahu.
page-request-rejected = { $id } ditolak. Reseller sudah diberi tahu.
page-request-taken = { $id } sudah diputuskan (di sini atau di chat).
page-request-taken-approved = { $id } sudah disetujui oleh { $name }: { $amount } dikreditkan.
page-request-taken-hand = { $id } sudah dikreditkan manual oleh { $name }: { $amount }.
page-request-taken-rejected = { $id } sudah ditolak oleh { $name }.
page-payinfo-title = Cara bayar
page-payinfo-label = Bank, nomor rekening dan nama, atau "scan QRIS"
page-payinfo-hint = Ditampilkan di setiap permintaan deposit. Untuk gambar QRIS, kirim fotonya ke bot dengan caption /payinfo.
page-payinfo-save = Simpan cara bayar
page-payinfo-saved = Cara bayar disimpan.
page-topup-title = Isi saldo
page-topup-amount = Jumlah (rupiah), { $min } sampai { $max }
page-topup-outside = { $amount } di luar batas permintaan: { $min } sampai { $max }.
page-topup-ask = Minta deposit
page-topup-made = Transfer tepat { $exact } ({ $amount } + kode { $code }), lalu kirim bukti transfer dengan Kirim bukti di bawah, atau di chat sebagai balasan permintaan { $id }.
page-topup-no-pay-info = Toko belum mengatur deposit.
page-topup-too-many = Anda sudah punya 3 permintaan terbuka: kirim buktinya atau batalkan satu dulu.
page-topup-too-soon = Anda sudah membuat 10 permintaan deposit dalam satu jam terakhir, batas maksimalnya: Anda bisa meminta lagi pukul { $at }.
page-topup-no-code = Semua kode unik untuk jumlah ini sedang dipakai permintaan lain: coba jumlah yang sedikit berbeda.
page-my-requests = Permintaan deposit saya
page-request-cancel = Batalkan
page-proof-send = Kirim bukti
page-proof-sent = Bukti untuk { $id } diterima. Admin memeriksa transfer; Anda akan diberi tahu di chat saat saldo masuk.
page-proof-busy = Banyak bukti sedang dikirim saat ini: coba lagi beberapa detik lagi.
page-proof-type = Kirim bukti sebagai gambar (JPEG, PNG, WebP) atau PDF, paling besar 10 MB.

## The H2H API (resellers' systems ordering by HTTP)
notice-via-api = Dipesan lewat API H2H.
notice-settled-by-provider = Diselesaikan dari jawaban status provider.
notice-loss = 🔻 <b>Rugi</b>: terjual { $price }, di bawah harga provider { $cost }: rugi <b>{ $loss }</b> pada penjualan ini.
api-sales-heading = 🔌 <b>Penjualan API H2H</b>, { $minutes } menit terakhir:
api-sales-line = • { $user } (<code>{ $userId }</code>): { $sold } terjual, { $revenue }{ $failed ->
    [0] {""}
   *[other] , { $failed } gagal
}

## /apikey: kunci API toko untuk reseller (H2H)
command-apikey = Kunci API toko untuk reseller
help-apikey = /apikey ID [off|status|callback URL|none|test]: kunci API toko untuk reseller (H2H)
apikey-usage = Pakai <code>/apikey USER_ID</code> di chat pribadi Anda dengan bot untuk membuat atau memperbarui kunci API reseller (ditampilkan sekali), <code>/apikey USER_ID off</code> untuk mematikan aksesnya, <code>/apikey USER_ID callback URL</code> (atau <code>callback none</code>) untuk alamat tempat sistemnya menerima hasil yang terlambat, <code>/apikey USER_ID status</code> untuk melihatnya, dan <code>/apikey USER_ID test</code> (lalu <code>test callback URL</code>) untuk kunci uji yang tidak memesan apa pun.
apikey-list-title = <b>Reseller dengan kunci API</b>
apikey-list-more = … dan { $n } lainnya.
apikey-h2h-off = ⚠️ API toko mati sampai H2H_ENABLED=true diatur (dan bot dimulai ulang): sampai saat itu setiap permintaan ditolak.
apikey-private-only = 🔒 Kunci hanya ditampilkan di chat pribadi Anda dengan bot: kirim <code>/apikey { $userId }</code> di sana. Tidak ada yang dibuat.
apikey-not-reseller = Kunci API hanya untuk reseller.
apikey-issued = 🔑 <b>Kunci API</b> untuk { $name }<code>{ $userId }</code>
apikey-rotated = 🔑 <b>Kunci API baru</b> untuk { $name }<code>{ $userId }</code>: kunci lama tidak berlaku lagi.
apikey-credentials =
    mitra_id: <code>{ $mitraId }</code>
    secret_key: <code>{ $secretKey }</code>
    signing_secret: <code>{ $signingSecret }</code>
    (callback membawa <code>X-Signature: sha256=</code> HMAC-SHA256 dari body-nya dengan kunci ini)
apikey-address = Pesanan: <code>{ $url }?destination=…&amp;ref_id=…&amp;item_code=…&amp;mitra_id=…&amp;secret_key=…</code>
apikey-address-unknown = Pesanan: alamat publik toko diikuti <code>/v1/transaction/partner?destination=…&amp;ref_id=…&amp;item_code=…&amp;mitra_id=…&amp;secret_key=…</code>
apikey-once = Kunci ini hanya ditampilkan sekali ini: berikan ke reseller dengan aman. <code>/apikey { $userId }</code> lagi membuat kunci baru dan menghentikan yang ini.
apikey-already-shown = /apikey ini sudah diproses: kuncinya sudah ditampilkan sekali dan tidak ditampilkan lagi. Kirim <code>/apikey { $userId }</code> lagi untuk kunci baru.
apikey-off = 🚫 Akses API { $name }<code>{ $userId }</code> mati: permintaannya ditolak mulai sekarang. <code>/apikey { $userId }</code> di chat pribadi Anda menyalakannya lagi dengan kunci baru.
apikey-none = { $name }<code>{ $userId }</code> belum punya kunci API. <code>/apikey { $userId }</code> di chat pribadi Anda dengan bot membuatnya.
apikey-status = { $name }<code>{ $userId }</code>: mitra_id <code>{ $mitraId }</code>, akses <b>{ $state }</b>, callback: { $callback }
apikey-state-on = nyala
apikey-state-off = mati
apikey-callback-none = tidak ada
apikey-callback-usage = Pakai <code>/apikey USER_ID callback URL</code>, atau <code>/apikey USER_ID callback none</code> untuk menghapusnya.
apikey-callback-bad = <code>{ $typed }</code> bukan alamat callback: berikan URL http:// atau https:// paling panjang { $max } karakter, mis. <code>https://example.com/topup/callback</code>, atau <code>none</code>.
apikey-callback-set = ✅ Callback { $name }<code>{ $userId }</code>: { $url }
apikey-callback-removed = ✅ Callback { $name }<code>{ $userId }</code> dihapus.
apikey-callback-private = <code>{ $typed }</code> bukan alamat callback: alamatnya mengarah ke jaringan privat (loopback, 10.x, 192.168.x, link-local, …), dan toko tidak mengirim callback ke sana. Berikan alamat publik reseller (pakai <code>H2H_CALLBACK_ALLOW_PRIVATE=true</code> hanya untuk tes atau jaringan privat Anda sendiri).
apikey-callback-unresolved = <code>{ $typed }</code> bukan alamat callback: nama host-nya tidak punya alamat (DNS tidak menjawab apa pun). Periksa namanya, atau coba lagi setelah DNS-nya siap.
apikey-test-issued = 🧪 <b>Kunci uji</b> untuk { $name }<code>{ $userId }</code>: pesanannya tidak memesan apa pun, tidak mengubah saldo dan tidak muncul di laporan mana pun.
apikey-test-rotated = 🧪 <b>Kunci uji baru</b> untuk { $name }<code>{ $userId }</code>: kunci uji lama tidak berlaku lagi.
apikey-test-how = Dengan kunci ini, destination yang diawali <code>FAIL</code> gagal, yang diawali <code>PEND</code> dijawab pending dan sukses sekitar 5 detik kemudian, lainnya sukses; setiap jawaban membawa <code>test: true</code>. Callback-nya ke <code>/apikey { $userId } test callback URL</code>.
apikey-test-once = Kunci uji ini hanya ditampilkan sekali ini. <code>/apikey { $userId } test</code> lagi membuat yang baru dan menghentikan yang ini.
apikey-test-access-off = ⚠️ Akses API reseller ini mati: kunci uji juga ditolak sampai <code>/apikey { $userId }</code> menyalakannya.
apikey-test-private-only = 🔒 Kunci uji hanya ditampilkan di chat pribadi Anda dengan bot: kirim <code>/apikey { $userId } test</code> di sana. Tidak ada yang dibuat.
apikey-test-already-shown = /apikey … test ini sudah diproses: kunci ujinya sudah ditampilkan sekali dan tidak ditampilkan lagi. Kirim <code>/apikey { $userId } test</code> lagi untuk yang baru.
apikey-test-none = { $name }<code>{ $userId }</code> belum punya kunci uji. <code>/apikey { $userId } test</code> di chat pribadi Anda dengan bot membuatnya.
apikey-test-callback-head = 🧪 Kunci uji:
apikey-status-test = kunci uji: mitra_id <code>{ $mitraId }</code>, callback: { $callback }

## Mini App: akses API di halaman reseller (teks biasa)
page-resellers-api-on = API nyala
page-api-title = Akses API (H2H)
page-api-access = Akses
page-api-on = nyala
page-api-off = mati
page-api-none = belum ada kunci
page-api-mitra = mitra_id
page-api-callback = URL callback
page-api-callback-none = tidak ada
page-api-callback-hint = Alamat http:// atau https:// paling panjang 500 karakter, tempat sistem reseller menerima hasil yang terlambat.
page-api-callback-save = Simpan callback
page-api-callback-remove = Hapus callback
page-api-callback-saved = Callback disimpan.
page-api-callback-removed = Callback dihapus.
page-api-callback-invalid = Berikan alamat http:// atau https:// paling panjang 500 karakter.
page-api-callback-private = Alamat ini mengarah ke jaringan privat (loopback, 10.x, 192.168.x, link-local, …): toko tidak mengirim callback ke sana. Berikan alamat publik reseller.
page-api-callback-unresolved = Nama host ini tidak punya alamat (DNS tidak menjawab apa pun): periksa namanya.
page-callbacks-title = Callback terakhir
page-callbacks-none = Belum ada callback yang dikirim ke reseller ini.
page-callbacks-attempt = percobaan { $n }
page-callbacks-ok = ✓ { $status }
page-callbacks-refused = ✗ HTTP { $status }
page-callbacks-not-reached = ✗ tidak sampai
page-callbacks-why-private = alamat privat
page-callbacks-why-unresolved = tidak ada alamat
page-callbacks-why-timeout = tidak dijawab dalam 10 dtk
page-callbacks-test = tes
page-callbacks-again = Kirim lagi
page-callbacks-sent-again = Callback { $ref } dikirim lagi dalam satu menit (event_id yang sama).
page-api-create = Buat kunci
page-api-turn-on = Nyalakan dengan kunci baru
page-api-rotate = Kunci baru
page-api-rotate-warning = Kunci yang sekarang langsung tidak berlaku: sistem reseller butuh kunci baru. Ketuk "Buat kunci baru" untuk lanjut.
page-api-rotate-confirm = Buat kunci baru
page-api-turn-off = Matikan
page-api-key-sent = Kunci baru sudah dikirim ke chat pribadi Anda dengan bot: ditampilkan di sana sekali, tidak pernah di sini.
page-api-key-repeated = Kunci ini sudah dibuat dan dikirim ke chat Anda dengan bot.
page-api-turned-off = Akses API dimatikan: permintaan reseller ditolak mulai sekarang.
page-api-not-sent = Kunci baru tidak bisa dikirim ke chat Anda dengan bot, dan kunci lama sudah tidak berlaku: buka bot, tekan Start, lalu buat kunci baru.
page-api-disabled = API toko mati sampai H2H_ENABLED=true diatur: kunci bisa dibuat sekarang, permintaan ditolak sampai saat itu.

## #46 ordering: the same player a moment ago, and ordering in the Mini App
order-placed-before-you = 🔁 <b>Sudah pernah dipesan:</b> kamu memesan ini untuk pemain ini pukul { $time } ({ $minutes ->
        [0] baru saja
       *[other] { $minutes } menit lalu
    }), ref <code>{ $refId }</code>.
order-placed-before-other = 🔁 <b>Sudah pernah dipesan:</b> { $name } memesan ini untuk pemain ini pukul { $time } ({ $minutes ->
        [0] baru saja
       *[other] { $minutes } menit lalu
    }), ref <code>{ $refId }</code>.
order-summary-hint-again = Tekan <b>Pesan lagi</b> hanya jika pemain memang harus menerimanya dua kali. Belum ada yang dipesan sebelum itu.
button-order-again = 🔁 Pesan lagi
page-tab-order = Pesan
page-order-title = Pesanan baru
page-order-saldo = Saldo kamu: { $saldo }
page-order-paused = Pesanan sedang dijeda: { $reason }
page-order-product-disabled = tidak dijual saat ini
page-order-product-resting = sementara tidak tersedia
page-order-player-title = ID pemain
page-order-player-label = ID pemain
page-order-player-example = Contoh: { $example }
page-order-bad-player = ID pemain tidak valid untuk game ini. Contohnya seperti { $example }.
page-order-continue = Lanjut
page-order-summary-title = Cek pesananmu
page-order-price = Harga: { $price }
page-order-saldo-after = Saldo: { $before } → setelah pesanan ini { $after }
page-order-ref = Ref pesanan
page-order-short-before = Saldo kamu kurang dari { $price }: isi saldo dulu (tab Saldo), lalu konfirmasi.
page-order-before-you = Sudah pernah dipesan: kamu memesan ini untuk pemain ini pukul { $time } ({ $minutes ->
        [0] baru saja
       *[other] { $minutes } menit lalu
    }), ref { $refId }. Konfirmasi hanya jika pemain memang harus menerimanya dua kali.
page-order-before-other = Sudah pernah dipesan: { $name } memesan ini untuk pemain ini pukul { $time } ({ $minutes ->
        [0] baru saja
       *[other] { $minutes } menit lalu
    }), ref { $refId }. Konfirmasi hanya jika pemain memang harus menerimanya dua kali.
page-order-confirm = Konfirmasi pesanan
page-order-again = Pesan lagi
page-order-cancel = Batal
page-order-not-offered = Produk ini tidak dijual saat ini: pilih produk lain.
page-order-unavailable = Produk ini sementara tidak tersedia: belum ada yang dipesan. Coba lagi nanti.
page-order-short = Saldo tidak cukup: saldo kamu { $saldo }, pesanan ini { $price }. Belum ada yang dipesan.
page-order-too-soon = Terlalu banyak pesanan sekaligus: tunggu satu menit, lalu coba lagi.
page-order-result-title = Pesananmu
page-order-processing = Memproses pesanan { $refId }… Paling lama satu menit. Jangan pesan lagi: hasilnya muncul di sini dan di chat.
page-order-checking = Menanyakan status pesanan ke bot ({ $why }). Tidak ada yang dipesan dua kali.
page-order-not-sent = Pesanan ini tidak dikirim: belum ada yang dipesan.
page-order-success = Top-up berhasil.
page-order-failed = Top-up gagal. Tidak ada biaya untuk pesanan ini.
page-order-held = Hasil belum diketahui: provider belum menjawab. Saldo untuk pesanan ini ditahan sampai toko memeriksanya; kamu diberi tahu di chat begitu selesai. Jangan pesan ulang.
page-order-unknown = Hasil belum diketahui: provider belum menjawab. Pesanan ada di Pending sampai diselesaikan; pesanan tidak dikirim ulang.
page-order-cancelled = Pesanan ini dibatalkan: belum ada yang dipesan.
page-order-copy-sn = Salin SN
page-order-copied = Tersalin ✓
page-order-new = Pesanan baru
receipt-picture-title = Bukti top-up
receipt-picture-status = BERHASIL
receipt-picture-game = Game
receipt-picture-product = Produk
receipt-picture-player-id = ID pemain
receipt-picture-player-name = Nama pemain
receipt-picture-sn = SN (nomor seri)
receipt-picture-ref = ID ref
receipt-picture-thanks = Terima kasih atas pembeliannya!
page-order-receipt = Gambar struk
page-order-receipt-share = Bagikan
page-order-receipt-save = Simpan gambar
page-order-receipt-failed = Gambar struk tidak bisa dimuat.
report-xlsx-button = 📊 Excel
export-xlsx-button = 📊 Excel (.xlsx) { $month }
export-xlsx-too-many = { $month } punya { $count } pesanan: terlalu banyak untuk satu file Excel. CSV-nya (/export { $month }) juga bisa dibuka di Excel.
page-orders-xlsx = Excel

## #46 recap
recap-title = 📊 <b>Rekap { $date }</b>
recap-late = ⏰ Terlambat: jadwalnya { $time }
recap-orders = Pesanan: { $total } (✅ { $success } · ❌ { $failed } · ⚠️ { $unknown } · ⏳ { $submitting })
recap-revenue = Omzet: <b>{ $selling }</b>
recap-margin = Margin: <b>{ $margin }</b>
recap-unpriced = ({ $count } penjualan dengan harga provider tak diketahui, { $selling }, tidak dihitung dalam margin)
recap-deposits = Deposit masuk: { $amount }
recap-owed = Utang ke reseller: <b>{ $total }</b> (saldo { $saldo } · ditahan { $held })
recap-balance = Saldo provider: { $balance }
recap-balance-at = Saldo di { $provider }: { $balance }
recap-balance-unseen = belum dilaporkan
recap-pending-none = Pesanan tertunda: tidak ada
recap-pending = ⚠️ Pesanan tertunda: <b>{ $count }</b>, terlama <code>{ $refs }</code> (/pending)
recap-picture-title = Rekap
recap-picture-sales = Terjual
recap-picture-revenue = Omzet
recap-picture-margin = Margin
recap-picture-sales-chart = Pesanan berhasil per hari
recap-picture-margin-chart = Margin per hari
recap-picture-late = terlambat: jadwal { $time }
reseller-low-saldo = ⚠️ Saldo Anda tinggal <b>{ $saldo }</b>, di bawah { $threshold }. Isi saldo dengan <code>/deposit JUMLAH</code> (mis. <code>/deposit 100000</code>) agar pesanan berikutnya bisa diproses.
